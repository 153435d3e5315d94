// Function and class templates, instantiated for several types (linkonce_odr, comdat).
#include <cstdio>
#include <initializer_list>

template <typename T> T gcd(T a, T b) { return b == 0 ? a : gcd(b, a % b); }

template <typename T, int N> struct Matrix {
    T m[N][N];
    static Matrix identity() {
        Matrix r{};
        for (int i = 0; i < N; i++) r.m[i][i] = 1;
        return r;
    }
    Matrix operator*(const Matrix &o) const {
        Matrix r{};
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                for (int k = 0; k < N; k++) r.m[i][j] += m[i][k] * o.m[k][j];
        return r;
    }
};

template <typename T, int N> Matrix<T, N> power(Matrix<T, N> base, int e) {
    Matrix<T, N> r = Matrix<T, N>::identity();
    while (e > 0) {
        if (e & 1) r = r * base;
        base = base * base;
        e >>= 1;
    }
    return r;
}

template <typename... Ts> long sum(Ts... xs) { return (0L + ... + static_cast<long>(xs)); }

int main() {
    std::printf("%d %ld %u\n", gcd(84, 36), gcd(1071L, 462L), gcd(17u, 5u));
    Matrix<long, 2> fib{{{1, 1}, {1, 0}}};
    for (int n : {1, 10, 50, 90}) std::printf("fib %d = %ld\n", n, power(fib, n).m[0][1]);
    Matrix<double, 3> rot{{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}};
    auto r4 = power(rot, 4);
    std::printf("%g %g %g\n", r4.m[0][0], r4.m[1][1], r4.m[0][1]);
    std::printf("%ld\n", sum(1, 2L, 'a', (short)7, 10u));
    return 0;
}
