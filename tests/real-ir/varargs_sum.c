// Variadic definitions (issue 27, item 4): va_start, va_arg, va_copy and va_end with ints,
// doubles, pointers and more arguments than registers, and a printf-like wrapper handing its
// va_list to vprintf.
#include <stdarg.h>
#include <stdio.h>

__attribute__((noinline)) long sum_ints(int count, ...) {
  va_list ap;
  va_start(ap, count);
  long total = 0;
  for (int i = 0; i < count; i++)
    total += va_arg(ap, int);
  va_end(ap);
  return total;
}

__attribute__((noinline)) double mean(int count, ...) {
  va_list ap;
  va_start(ap, count);
  double total = 0;
  for (int i = 0; i < count; i++)
    total += va_arg(ap, double);
  va_end(ap);
  return count ? total / count : 0;
}

// Mixed: a format of 'i' (int), 'l' (long), 'd' (double), 's' (string).
__attribute__((noinline)) void show(const char *format, ...) {
  va_list ap, again;
  va_start(ap, format);
  va_copy(again, ap);
  for (const char *f = format; *f; f++) {
    switch (*f) {
    case 'i': printf("i:%d ", va_arg(ap, int)); break;
    case 'l': printf("l:%ld ", va_arg(ap, long)); break;
    case 'd': printf("d:%.3f ", va_arg(ap, double)); break;
    case 's': printf("s:%s ", va_arg(ap, const char *)); break;
    }
  }
  va_end(ap);
  // The copy reads the same arguments again.
  int strings = 0;
  for (const char *f = format; *f; f++) {
    switch (*f) {
    case 'i': (void)va_arg(again, int); break;
    case 'l': (void)va_arg(again, long); break;
    case 'd': (void)va_arg(again, double); break;
    case 's': strings += va_arg(again, const char *)[0]; break;
    }
  }
  va_end(again);
  printf("| %d\n", strings);
}

// Named arguments that fill every register before the variadic ones.
__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g, long h,
                                    double x, double y, double z, double w, double p, double q,
                                    double r, double s, double t, ...) {
  va_list ap;
  va_start(ap, t);
  long extra = va_arg(ap, long);
  double more = va_arg(ap, double);
  long last = va_arg(ap, long);
  va_end(ap);
  return a + b + c + d + e + f + g + h + (long)(x + y + z + w + p + q + r + s + t) + extra * 1000 +
         (long)(more * 100) + last * 100000;
}

__attribute__((noinline, format(printf, 2, 3))) int report(int level, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  printf("[%d] ", level);
  int n = vprintf(format, ap);
  va_end(ap);
  return n;
}

int main(void) {
  printf("%ld %ld %ld\n", sum_ints(0), sum_ints(3, 1, 2, 3), sum_ints(10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
  printf("%.4f %.4f\n", mean(2, 1.5, 2.5), mean(12, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.5));
  show("ildsidsl", 7, 1L << 40, 3.25, "abc", -9, 0.125, "xyz", -5L);
  show("dddddddddsi", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, "tail", 42);
  printf("%ld\n", many(1, 2, 3, 4, 5, 6, 7, 8, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 1.0, 9L, 2.5, 3L));
  int n = report(2, "%s=%d %.2f %c\n", "answer", 42, 2.5, 'z');
  printf("%d\n", n);
  return 0;
}
