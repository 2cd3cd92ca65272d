/* Dense random N x N matrices reduced by the reference libraries, for BENCHMARKS.md's dense table,
   timed like `cargo run --release --example dense_compare` (kernel only, in process, median of
   RUNS). Not part of the product.

     apt-get install libm4ri-dev libflint-dev
     gcc -O2 -o /tmp/dense_random benches/reference/dense_random.c -lm4ri -lflint
     /tmp/dense_random gf2 8192 5      # M4RI mzd_echelonize, full reduced form
     /tmp/dense_random mod 7 2000 5    # FLINT nmod_mat_rref
     /tmp/dense_random howell 6 1000 5 # FLINT nmod_mat_howell_form */
#include <m4ri/m4ri.h>
#include <flint/flint.h>
#include <flint/nmod_mat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: gf2 N [RUNS] | mod M N [RUNS] | howell M N [RUNS]\n"); return 2; }
    const char *kind = argv[1];
    int gf2 = strcmp(kind, "gf2") == 0;
    unsigned long m = gf2 ? 2 : strtoul(argv[2], 0, 10);
    long n = atol(argv[gf2 ? 2 : 3]);
    int runs = argc > (gf2 ? 3 : 4) ? atoi(argv[gf2 ? 3 : 4]) : 5;
    double *times = malloc(sizeof(double) * runs);
    flint_rand_t state;
    flint_randinit(state);
    for (int k = 0; k < runs; k++) {
        long rank;
        double t;
        if (gf2) {
            mzd_t *A = mzd_init(n, n);
            mzd_randomize(A);
            t = now();
            rank = mzd_echelonize(A, 1);
            t = now() - t;
            mzd_free(A);
        } else {
            nmod_mat_t A;
            nmod_mat_init(A, n, n, m);
            nmod_mat_randfull(A, state);
            for (long i = 0; i < n; i++)
                for (long j = 0; j < n; j++) nmod_mat_entry(A, i, j) = n_randint(state, m);
            t = now();
            rank = strcmp(kind, "howell") == 0 ? nmod_mat_howell_form(A) : nmod_mat_rref(A);
            t = now() - t;
            nmod_mat_clear(A);
        }
        printf("%s m=%lu n=%ld rank=%ld time=%.4f\n", kind, m, n, rank, t);
        times[k] = t;
    }
    qsort(times, runs, sizeof(double), cmp);
    printf("%s m=%lu n=%ld: median of %d = %.6f s\n", kind, m, n, runs, times[runs / 2]);
    return 0;
}
