/* An n x n Lights Out board (all off -> all on) as one dense GF(2) system of n^2 unknowns,
   solved by M4RI: the reference for BENCHMARKS.md's "same board as one dense system" row, timed
   side by side with `cargo run --release --example dense_board -- N`. Not part of the product.

     apt-get install libm4ri-dev
     gcc -O2 -o /tmp/m4ri_board benches/reference/m4ri_board.c -lm4ri
     /tmp/m4ri_board 100

   Builds [A | b] (A[i][j] = 1 when pressing j toggles i), reduces it with mzd_echelonize
   (full reduced form), reads one solution (free unknowns 0), checks it by simulation. */
#include <m4ri/m4ri.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    rci_t N = (rci_t)n * n;
    mzd_t *A = mzd_init(N, N + 1);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            rci_t i = r * n + c;
            mzd_write_bit(A, i, i, 1);
            if (r > 0) mzd_write_bit(A, i, i - n, 1);
            if (r + 1 < n) mzd_write_bit(A, i, i + n, 1);
            if (c > 0) mzd_write_bit(A, i, i - 1, 1);
            if (c + 1 < n) mzd_write_bit(A, i, i + 1, 1);
            mzd_write_bit(A, i, N, 1);
        }
    rci_t rank = mzd_echelonize(A, 1);
    char *x = calloc(N, 1);
    rci_t lead = 0; /* pivots move right row by row in reduced echelon form */
    for (rci_t i = 0; i < rank; i++, lead++) {
        while (lead <= N && !mzd_read_bit(A, i, lead)) lead++;
        if (lead == N) { printf("no solution\n"); return 1; }
        x[lead] = mzd_read_bit(A, i, N);
    }
    long presses = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int i = r * n + c, v = x[i];
            if (r > 0) v ^= x[i - n];
            if (r + 1 < n) v ^= x[i + n];
            if (c > 0) v ^= x[i - 1];
            if (c + 1 < n) v ^= x[i + 1];
            if (v != 1) { printf("check failed\n"); return 1; }
            presses += x[i];
        }
    printf("%dx%d: rank %d of %d, a plan of %ld presses, verified\n", n, n, (int)rank, (int)N, presses);
    mzd_free(A);
    free(x);
    return 0;
}
