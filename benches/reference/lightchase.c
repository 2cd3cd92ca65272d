/* Plain C light chasing for n x n Lights Out, all off -> all on, bit-packed: the reference the
   BENCHMARKS.md's big-board table is measured against, side by side with modsolve on the same machine.
   Not part of the product and not built by cargo.

     gcc -O2 -march=native -o /tmp/lightchase benches/reference/lightchase.c
     /tmp/lightchase 4000 > /tmp/c.json      # the press vector as a JSON list, verified

   The first row's presses are symbols (n bits plus a constant bit per press); each row fixes
   the next; the last row's n equations are solved by Gauss-Jordan on packed words; the solution
   is replayed row by row, written, and the last row is checked to be all zero. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
typedef uint64_t w;
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    int W = (n + 1 + 63) / 64;           /* n symbols + constant bit at index n */
    size_t rs = (size_t)n * W;
    w *prev = calloc(rs, 8), *cur = calloc(rs, 8), *next = calloc(rs, 8);
    /* row 0: press c = symbol c */
    for (int c = 0; c < n; c++) cur[(size_t)c * W + c / 64] |= (w)1 << (c % 64);
    for (int r = 0; r < n; r++) {
        /* cell (r,c) must flip once: next[c] = 1 + cur[c-1] + cur[c] + cur[c+1] + prev[c] */
        for (int c = 0; c < n; c++) {
            w *o = next + (size_t)c * W, *a = cur + (size_t)c * W, *b = prev + (size_t)c * W;
            w *l = c > 0 ? a - W : NULL, *rr = c + 1 < n ? a + W : NULL;
            for (int k = 0; k < W; k++) {
                w v = a[k] ^ b[k];
                if (l) v ^= l[k];
                if (rr) v ^= rr[k];
                o[k] = v;
            }
            o[n / 64] ^= (w)1 << (n % 64);
        }
        w *t = prev; prev = cur; cur = next; next = t;
    }
    /* cur now holds the "press row n" expressions: all must be 0. Solve cur * s = const. */
    int piv_row = 0; int *pivcol = malloc(sizeof(int) * n);
    for (int col = 0; col < n && piv_row < n; col++) {
        int k = col / 64; w bit = (w)1 << (col % 64);
        int p = -1;
        for (int i = piv_row; i < n; i++) if (cur[(size_t)i * W + k] & bit) { p = i; break; }
        if (p < 0) continue;
        if (p != piv_row) for (int j = 0; j < W; j++) { w t = cur[(size_t)p * W + j]; cur[(size_t)p * W + j] = cur[(size_t)piv_row * W + j]; cur[(size_t)piv_row * W + j] = t; }
        w *pr = cur + (size_t)piv_row * W;
        for (int i = 0; i < n; i++) if (i != piv_row && (cur[(size_t)i * W + k] & bit)) {
            w *ri = cur + (size_t)i * W;
            for (int j = k; j < W; j++) ri[j] ^= pr[j];
        }
        pivcol[piv_row++] = col;
    }
    for (int i = piv_row; i < n; i++) if (cur[(size_t)i * W + n / 64] >> (n % 64) & 1) { printf("null\n"); return 1; }
    char *s = calloc(n, 1); /* free symbols 0 */
    for (int i = 0; i < piv_row; i++) s[pivcol[i]] = (cur[(size_t)i * W + n / 64] >> (n % 64)) & 1;
    /* replay with concrete values */
    char *pp = calloc(n, 1), *pc = malloc(n), *pn = malloc(n);
    memcpy(pc, s, n);
    char *buf = malloc((size_t)2 * n + 2);
    fputc('[', stdout);
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) { buf[2 * c] = '0' + pc[c]; buf[2 * c + 1] = ','; }
        if (r == n - 1) buf[2 * n - 1] = ']';
        fwrite(buf, 1, 2 * n, stdout);
        for (int c = 0; c < n; c++) pn[c] = 1 ^ pc[c] ^ pp[c] ^ (c ? pc[c - 1] : 0) ^ (c + 1 < n ? pc[c + 1] : 0);
        char *t = pp; pp = pc; pc = pn; pn = t;
    }
    for (int c = 0; c < n; c++) if (pc[c]) { fprintf(stderr, "verify failed\n"); return 1; }
    fputc('\n', stdout);
    return 0;
}
