"""Parameter sweeps of nimlab on a Dask cluster.

Each task is one shard of a sweep or of a search split at the root (the CLI's `--shard
i/k`) or one row or game, so any number of machines share the work; the merged result
is the single-process result.

    python examples/dask_sweep.py                      # a LocalCluster on this machine
    python examples/dask_sweep.py scheduler:8786       # a running cluster

On a real cluster every worker needs the package: `pip install ./crates/python`; the
frontier table (`frontier_on`) runs the `nimlab` binary itself, so workers need it on
their PATH and a directory they all see for the checkpoints.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import nimlab


def sweep_shard(family, max, size, shard, shards, up_to=10_000_000):
    """One shard of `nimlab sweep FAMILY --max M --size K --shard i/k` (a Dask task)."""
    return nimlab.sweep(family, max, size, shard=(shard, shards), up_to=up_to)


def sweep_on(client, family, max, size, shards):
    """The whole sweep, `shards` tasks on the cluster, merged in the CLI's order."""
    futures = client.map(
        sweep_shard, [family] * shards, [max] * shards, [size] * shards,
        range(shards), [shards] * shards,
    )
    return nimlab.merge_sweep(client.gather(futures))


def row_period(spec, row, up_to):
    """The observed arithmetic period of one row of a two-coordinate game."""
    [(_, found)] = nimlab.game(spec).periodicity(up_to, rows=(row, row))
    return row, found


def rows_on(client, spec, rows, up_to):
    """Row periods of `spec` (e.g. Wythoff's rows), one task per row."""
    futures = client.map(row_period, [spec] * len(rows), rows, [up_to] * len(rows))
    return sorted(client.gather(futures))


def period(spec, up_to=None):
    """Proven or observed period of a one-heap game (e.g. an octal code)."""
    return spec, nimlab.game(spec).periodicity(up_to)


def census_on(client, specs, up_to=None):
    """Periods of many one-heap games, one task each (an octal census)."""
    return dict(client.gather(client.map(period, specs, [up_to] * len(specs))))


def frontier_shard(shard, shards, shared, up_to, cpu_seconds=None, codes=None, binary="nimlab"):
    """One shard of `nimlab census frontier` (a Dask task). Its JSON lines go to
    `shared/part-i.jsonl` and its checkpoints to `shared/ckpt/`, on storage every worker
    sees: a task that dies (a lost worker, a budget spent) is simply run again, on any
    machine, and continues from the checkpoints; the games finished in its file are
    skipped, those its budget stopped are continued."""
    shared = Path(shared)
    (shared / "ckpt").mkdir(parents=True, exist_ok=True)
    out = shared / f"part-{shard}.jsonl"
    args = [binary, "--force", "census", "frontier", "--up-to", str(up_to),
            "--shard", f"{shard}/{shards}", "-o", str(out), "--checkpoints", str(shared / "ckpt")]
    if cpu_seconds is not None:
        args += ["--cpu-seconds", str(cpu_seconds)]
    if codes:
        args += ["--codes", ",".join(codes)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    # A game stopped by its budget and continued by a rerun has several lines: the
    # last is its result.
    last = {}
    for line in out.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            last[row["index"]] = row
    return list(last.values())


def frontier_on(client, shards, shared, up_to, cpu_seconds=None, codes=None, binary="nimlab"):
    """The frontier table on the cluster: `shards` tasks, then one JSON-lines file
    (`shared/frontier.jsonl`, in list order) and its Markdown table
    (`shared/frontier.md`), written by the CLI from the merged lines."""
    futures = client.map(
        frontier_shard, range(shards), [shards] * shards, [str(shared)] * shards,
        [up_to] * shards, [cpu_seconds] * shards, [codes] * shards, [binary] * shards,
    )
    lines = sorted((r for part in client.gather(futures) for r in part), key=lambda r: r["index"])
    merged = Path(shared) / "frontier.jsonl"
    tmp = merged.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in lines))
    os.replace(tmp, merged)
    # Every game is in the merged file, so this computes nothing: it writes the table.
    args = [binary, "census", "frontier", "--up-to", str(up_to), "-o", str(merged),
            "--table", str(Path(shared) / "frontier.md")]
    if codes:
        args += ["--codes", ",".join(codes)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return lines


def search_shard(spec, pos, shard, shards, below):
    """One shard of a search split at the root (`nimlab value SPEC POS --shard i/k
    --below B`, a Dask task): which nimbers below B the root's options whose index is
    = i (mod k) have."""
    return nimlab.game(spec).search_shard(pos, (shard, shards), below=below)


def search_on(client, spec, pos, shards, below=4):
    """The nimber of one big position (a Cram board, a Node Kayles graph) by pruned
    search, split at the root into `shards` tasks and merged: the dict of
    `Game.analyse`. When every nimber below the bound is some option's, the shards run
    again asking below twice the bound."""
    while True:
        futures = client.map(
            search_shard, [spec] * shards, [pos] * shards, range(shards),
            [shards] * shards, [below] * shards,
        )
        parts = client.gather(futures)
        hit = {h["grundy"] for part in parts for h in part["hits"]}
        if any(u not in hit for u in range(below)):
            return nimlab.game(spec).merge_search(pos, parts)
        below *= 2


def main(address=None):
    from dask.distributed import Client, LocalCluster

    if address is None:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
        client = Client(cluster)
    else:
        client = Client(address)
    with client:
        rows = sweep_on(client, "subtraction", 30, 3, shards=8)
        print(f"{len(rows)} subtraction sets of size 3 with max <= 30; longest periods:")
        for r in rows[:5]:
            print(f"  S = {r['s']}: preperiod {r['preperiod']}, period {r['period']}")
        codes = ["octal(code=0.07)", "octal(code=0.137)", "octal(code=0.77)"]
        for spec, p in census_on(client, codes).items():
            print(f"  {spec}: " + (f"period {p['period']} after {p['preperiod']}" if p else "none"))
        cram = search_on(client, "cram(rows=4,cols=7)", "start", shards=4)
        print(f"  cram 4x7: nimber {cram['grundy']} ({cram['method_detail']})")
        for y, p in rows_on(client, "wythoff", list(range(4)), 1000):
            print(f"  wythoff row {y}: period {p['period']}, saltus {p['saltus']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
