// Struct passing across the C ABI: shared by the half patchmap compiles (via clang-19's IR) and the
// half the target's gcc compiles.
struct pair { long a, b; };
struct dpair { double x, y; };
struct mixed { long n; double d; };
struct small { int a; char c; };
struct triple { long a, b, c; };
struct big { long v[5]; };

// Defined by patchmap (from ours.c).
struct pair ours_pair(struct pair p, struct pair q);
struct pair ours_pair_late(long a1, long a2, long a3, long a4, long a5, long a6, long a7, struct pair p, long after);
struct dpair ours_dpair_late(double d1, double d2, double d3, double d4, double d5, double d6, double d7,
                             struct dpair p, double after);
struct mixed ours_mixed(struct mixed m, struct small s);
long ours_triple(struct triple t, long k);
struct big ours_big(struct big b, long k);
long ours_calls_back(void);

// Defined by gcc (in theirs.c).
struct pair theirs_pair_late(long a1, long a2, long a3, long a4, long a5, long a6, long a7, struct pair p, long after);
struct dpair theirs_dpair_late(double d1, double d2, double d3, double d4, double d5, double d6, double d7,
                               struct dpair p, double after);
struct big theirs_big(struct triple t);
