"""Sweeps on a Dask LocalCluster of worker processes equal the single-process CLI run."""

import json
import sys

import pytest

import conftest

distributed = pytest.importorskip("dask.distributed")
sys.path.insert(0, str(conftest.REPO / "examples"))
import dask_sweep  # noqa: E402  (examples/dask_sweep.py, the README's example)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with cluster, distributed.Client(cluster) as client:
        yield client


def test_subtraction_sweep_on_workers_equals_the_cli(client, cli_json):
    merged = dask_sweep.sweep_on(client, "subtraction", 40, 3, shards=6)
    whole = cli_json("sweep", "subtraction", "--max", "40", "--size", "3")
    assert whole["sets_in_shard"] == len(merged)
    assert merged == whole["results"]
    # The tasks ran in the worker processes, not here.
    workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2


def test_shards_through_the_cli_merge_the_same_way(cli_json):
    parts = [
        cli_json("sweep", "subtraction", "--max", "20", "--size", "2", "--shard", f"{i}/3")["results"]
        for i in range(3)
    ]
    assert dask_sweep.nimlab.merge_sweep(parts) == cli_json(
        "sweep", "subtraction", "--max", "20", "--size", "2"
    )["results"]


def test_a_search_split_on_workers_equals_the_cli(client, cli_json):
    # Cram 4x7: nimber 3 in Beling's published table.
    # Asked below 2 first, the shards run again below 4.
    merged = dask_sweep.search_on(client, "cram(rows=4,cols=7)", "start", shards=3, below=2)
    assert merged["grundy"] == 3
    assert merged["method"] == "search"
    assert "nimbers below 4" in merged["method_detail"]
    one = cli_json("moves", "cram(rows=4,cols=7)", "start", "--search")
    assert merged["winning_moves"] and set(merged["winning_moves"]) <= set(one["winning_moves"])


def test_wythoff_rows_on_workers_equal_the_cli(client, cli_json):
    rows = dask_sweep.rows_on(client, "wythoff", list(range(6)), 800)
    want = cli_json("periodicity", "wythoff", "--row", "0-5", "--up-to", "800")["rows"]
    got = [
        {"row": y, "preperiod": p["preperiod"], "period": p["period"], "saltus": p["saltus"]}
        for y, p in rows
    ]
    assert got == [{k: r[k] for k in ("row", "preperiod", "period", "saltus")} for r in want]


def test_octal_census_on_workers_equals_the_cli(client, cli_json):
    specs = ["octal(code=0.07)", "octal(code=0.137)", "octal(code=0.77)", "octal(code=0.6)"]  # 0.6: no period known
    found = dask_sweep.census_on(client, specs, up_to=20_000)
    for spec in specs:
        want = cli_json("periodicity", spec, "--up-to", "20000")
        got = found[spec] or {"preperiod": None, "period": None, "proven": False}
        assert (got["preperiod"], got["period"], got["proven"]) == (
            want["preperiod"], want["period"], want["proven"],
        )


def test_frontier_shards_on_workers_equal_one_run(client, cli, tmp_path):
    """`census frontier` in shards on the workers (checkpoints in a shared directory)
    gives the lines and the table of one uninterrupted run."""
    binary = conftest.find_cli()
    codes = [".6", ".14", "4.344", "grundy"]
    lines = dask_sweep.frontier_on(
        client, 3, tmp_path / "shared", 1 << 14, codes=codes, binary=binary
    )
    code, _, err = cli(
        "census", "frontier", "--up-to", str(1 << 14), "--codes", ",".join(codes),
        "-o", str(tmp_path / "one.jsonl"), "--table", str(tmp_path / "one.md"),
    )
    assert code == 0, err
    one = [json.loads(line) for line in (tmp_path / "one.jsonl").read_text().splitlines()]
    timing = ("seconds", "cpu_seconds")
    strip = lambda r: {k: v for k, v in r.items() if k not in timing}  # noqa: E731
    assert [strip(r) for r in lines] == sorted((strip(r) for r in one), key=lambda r: r["index"])
    assert len(lines) == len(codes)
    table = (tmp_path / "shared" / "frontier.md").read_text()
    assert all(r["values_sha256"] for r in lines) and "4.344" in table and "Grundy" in table
