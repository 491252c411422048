/* A plain C peer for nimlab's Wythoff table: the Sprague-Grundy values of Wythoff's
 * game on [0,N)^2, written as a researcher would without nimlab.
 *
 *   cc -O3 -march=native -fopenmp -o wythoff_bitset wythoff_bitset.c
 *   ./wythoff_bitset N [THREADS [FILE]]   prints checksums of the table (see the end);
 *                                         FILE: the table as little-endian uint32, row y
 *                                         after row y - 1 (nimlab's .npy data, header off)
 *
 * G(x,y) is the mex of the values left of it in its row, below it in its column and
 * below-left on its diagonal. Each row, column and diagonal keeps a bitset of the
 * values it holds and the index of its first word that is not full ("least unused"
 * pointer): the mex is the first zero bit of the three sets' OR, searched from the
 * largest of the three pointers. Only x <= y is computed (G is symmetric); the cells of
 * one anti-diagonal x + y = s are independent (no two share a row, column or
 * diagonal), so the threads split each anti-diagonal and meet at a barrier. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

typedef struct {
    uint64_t *bits;
    uint32_t low; /* words below this are all ones */
} line_t;

static inline void put(line_t *l, uint32_t v) {
    l->bits[v >> 6] |= 1ULL << (v & 63);
    while (l->bits[l->low] == ~0ULL) l->low++;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s N [THREADS]\n", argv[0]); return 2; }
    long n = atol(argv[1]);
    if (argc > 2) omp_set_num_threads(atoi(argv[2]));
    if (n <= 0 || n > (1L << 16)) { fprintf(stderr, "N in 1..65536\n"); return 2; }
    uint32_t words = (uint32_t)((2 * n + 64) / 64 + 1);
    /* rows y (cells x <= y of row y), columns x, diagonals y - x >= 0 */
    line_t *rows = calloc(n, sizeof *rows), *cols = calloc(n, sizeof *cols),
           *diags = calloc(n, sizeof *diags);
    uint64_t *pool = calloc((size_t)3 * n * words, sizeof(uint64_t));
    uint32_t *g = malloc((size_t)n * n * sizeof(uint32_t));
    if (!rows || !cols || !diags || !pool || !g) { fprintf(stderr, "out of memory\n"); return 1; }
    for (long i = 0; i < n; i++) {
        rows[i].bits = pool + (size_t)i * words;
        cols[i].bits = pool + (size_t)(n + i) * words;
        diags[i].bits = pool + (size_t)(2 * n + i) * words;
    }
    /* A cell (x, y), x <= y, reads its row's cells left of it (all with x' < x <= y,
     * above the diagonal), its diagonal below-left (the same), and its column below it:
     * (x, y') with x <= y' < y, above, and with y' < x the mirrors of (y', x), whose
     * values the column of x is given when they are computed. So each cell puts its
     * value in its row, column and diagonal and, off the diagonal, in the column of y
     * (for the mirror (y, x)); no two cells of an anti-diagonal touch the same set. */
    #pragma omp parallel
    {
        for (long s = 0; s <= 2 * (n - 1); s++) {
            long x0 = s - (n - 1) > 0 ? s - (n - 1) : 0, x1 = s / 2; /* x <= y = s - x */
            #pragma omp for schedule(static)
            for (long x = x0; x <= x1; x++) {
                long y = s - x;
                line_t *r = &rows[y], *c = &cols[x], *d = &diags[y - x];
                uint32_t w = r->low;
                if (c->low > w) w = c->low;
                if (d->low > w) w = d->low;
                uint64_t seen;
                while ((seen = r->bits[w] | c->bits[w] | d->bits[w]) == ~0ULL) w++;
                uint32_t v = (w << 6) + (uint32_t)__builtin_ctzll(~seen);
                g[(size_t)y * n + x] = v;
                g[(size_t)x * n + y] = v;
                put(r, v);
                put(c, v);
                put(d, v);
                if (x != y) put(&cols[y], v);
            }
        }
    }
    if (argc > 3) {
        FILE *f = fopen(argv[3], "wb");
        if (!f || fwrite(g, sizeof(uint32_t), (size_t)n * n, f) != (size_t)n * n || fclose(f)) {
            fprintf(stderr, "cannot write %s\n", argv[3]);
            return 1;
        }
    }
    /* A checksum to compare with nimlab's table: the sum of all values and the sum of
     * value * (x + 1) * (y + 1) mod 2^64. */
    uint64_t sum = 0, weighted = 0;
    uint32_t max = 0;
    for (long y = 0; y < n; y++)
        for (long x = 0; x < n; x++) {
            uint32_t v = g[(size_t)y * n + x];
            sum += v;
            weighted += (uint64_t)v * (uint64_t)(x + 1) * (uint64_t)(y + 1);
            if (v > max) max = v;
        }
    printf("wythoff %ld: sum %llu weighted %llu max %u\n", n, (unsigned long long)sum,
           (unsigned long long)weighted, max);
    return 0;
}
