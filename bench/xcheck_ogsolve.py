#!/usr/bin/env python3
"""Independent check of nimlab's octal values against ogsolve (P. Beling's solver).

For each CODE N given, ogsolve prints G(0), ..., G(N - 1) by its naive method; their
SHA-256 (each value as the narrowest little-endian integer that holds them all, the
convention of nimlab's `values_sha256`) must equal that of `nimlab census run CODE
--up-to N`. Prints one line per game and exits 1 on any difference.

Usage: bench/xcheck_ogsolve.py 0.76 524288 0.414 524288
  NIMLAB=path/to/nimlab (default target/release/nimlab), OGSOLVE=path/to/ogsolve
  (default: ogsolve on PATH).
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys


def ogsolve_values(ogsolve, code, n):
    out = subprocess.run(
        [ogsolve, code, "-n", str(n - 1), "-p"], capture_output=True, text=True, check=True
    ).stdout
    line = out.split("nimbers:", 1)[1].split("\n", 1)[0]
    values = [int(x) for x in line.split()]
    if len(values) != n:
        sys.exit(f"ogsolve printed {len(values)} values for {code}, not {n}")
    return values


def sha256_narrow(values):
    top = max(values, default=0)
    width = 1 if top < 1 << 8 else 2 if top < 1 << 16 else 4
    return hashlib.sha256(b"".join(v.to_bytes(width, "little") for v in values)).hexdigest()


def main(args):
    if len(args) < 2 or len(args) % 2:
        sys.exit(__doc__)
    nimlab = os.environ.get("NIMLAB", "target/release/nimlab")
    ogsolve = os.environ.get("OGSOLVE") or shutil.which("ogsolve")
    if not ogsolve:
        sys.exit("no ogsolve: set OGSOLVE")
    differ = False
    for code, n in zip(args[::2], args[1::2]):
        n = int(n)
        values = ogsolve_values(ogsolve, code, n)
        theirs = sha256_narrow(values)
        run = subprocess.run(
            [nimlab, "census", "run", code, "--up-to", str(n)],
            capture_output=True, text=True, check=True,
        )
        ours = json.loads(run.stdout.strip().splitlines()[-1])["values_sha256"]
        same = ours == theirs
        differ |= not same
        print(f"{code} to {n}: largest {max(values)}, ogsolve {theirs[:16]}…, "
              f"nimlab {ours[:16]}… {'equal' if same else 'DIFFERENT'}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
