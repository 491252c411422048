#!/usr/bin/env python3
"""Plain brute-force Grundy table of Wythoff's game, the baseline a user would write.

Usage: python3 bench/wythoff_brute.py N   -> prints the elapsed seconds and a checksum.
"""
import sys
import time


def table(n):
    g = [[0] * n for _ in range(n)]
    for y in range(n):
        for x in range(n):
            seen = set()
            for u in range(x):
                seen.add(g[y][u])
            for v in range(y):
                seen.add(g[v][x])
            for k in range(1, min(x, y) + 1):
                seen.add(g[y - k][x - k])
            m = 0
            while m in seen:
                m += 1
            g[y][x] = m
    return g


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    start = time.perf_counter()
    g = table(n)
    elapsed = time.perf_counter() - start
    checksum = sum(sum(row) for row in g)
    print(f"{elapsed:.6f} {checksum}")
