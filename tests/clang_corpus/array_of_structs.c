// Arrays of structs: sort by key, aggregate by field.
#include <stdio.h>

struct employee { char name[12]; int age; double salary; };

static struct employee staff[] = {
    { "ada", 36, 5200.5 }, { "bob", 29, 4100.0 }, { "cy", 41, 6100.25 },
    { "dee", 25, 3900.75 }, { "eve", 33, 4700.0 },
};

int main(void) {
    int n = sizeof staff / sizeof staff[0];
    for (int i = 1; i < n; i++) {
        struct employee e = staff[i];
        int j = i - 1;
        while (j >= 0 && staff[j].age > e.age) { staff[j + 1] = staff[j]; j--; }
        staff[j + 1] = e;
    }
    double total = 0;
    for (int i = 0; i < n; i++) {
        printf("%-4s %d %.2f\n", staff[i].name, staff[i].age, staff[i].salary);
        total += staff[i].salary;
    }
    printf("total %.2f\n", total);
    return staff[0].age;
}
