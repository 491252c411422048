"""Values, moves and tables against the papers' tables and the closed forms."""

import math

import numpy as np
import pytest

import nimlab
from conftest import seed_table


def test_ryuoh_table_1_and_3_are_the_papers_tables():
    table1 = nimlab.game("ryuoh(p=3)").table(13)
    assert np.array_equal(table1, seed_table("ryuoh_table1_p3.tsv"))
    table3 = nimlab.game("ryuoh(p=4)").table(13)
    assert np.array_equal(table3, seed_table("ryuoh_table3_p4.tsv"))


def test_value_takes_text_tuples_and_lists():
    g = nimlab.game("ryuoh(p=3)")
    seed = seed_table("ryuoh_table1_p3.tsv")
    for x, y in [(0, 0), (4, 7), (12, 12), (5, 11), (12, 3)]:
        want = int(seed[y, x])
        assert g.value(f"{x},{y}") == want
        assert g.value((x, y)) == want
        assert g.value([x, y]) == want
        assert g.outcome((x, y)) == ("P" if want == 0 else "N")


def test_table_shape_dtype_and_layout():
    t = nimlab.game("ryuoh(p=3)").table(13)
    assert t.shape == (13, 13) and t.dtype == np.uint32 and t.flags["C_CONTIGUOUS"]
    assert t[7, 4] == 11  # rows y, columns x: G(4, 7)
    cube = nimlab.game("nim(heaps=3)").table(8)
    assert cube.shape == (8, 8, 8)
    z, y, x = np.indices(cube.shape)
    assert np.array_equal(cube, x ^ y ^ z)
    seq = nimlab.game("subtraction(s={1,3,4})").table(14)
    assert seq.shape == (14,)
    assert seq.tolist() == [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]
    values, method = nimlab.game("wythoff").table(16, with_method=True)
    assert values.shape == (16, 16) and isinstance(method, str)


def test_cells_that_are_not_positions():
    # pass(G): the last coordinate is the pass flag (box of 2), so the shape is (2, y, x).
    t = nimlab.game("pass(ryuoh(p=3))").table(6)
    assert t.shape == (2, 6, 6)
    assert nimlab.NOT_A_POSITION == 2**32 - 1
    # The staircase's cells outside the game: masked, not 4294967295 in the sums.
    s = nimlab.game("chocolate-staircase(f=t/2)").table(8)
    assert isinstance(s, np.ma.MaskedArray) and s.mask.any() and not s.mask.all()
    assert s.max() < nimlab.NOT_A_POSITION
    plain = nimlab.game("chocolate-staircase(f=t/2)").table(8, masked=False)
    assert not isinstance(plain, np.ma.MaskedArray)
    assert (plain[s.mask] == nimlab.NOT_A_POSITION).all()
    assert (plain[~s.mask] == s.compressed()).all()
    # Tables of positions only stay plain arrays.
    assert not isinstance(nimlab.game("wythoff").table(4), np.ma.MaskedArray)


def test_moves_lists_options_like_the_readme():
    r = nimlab.game("ryuoh(p=3)").moves("2,2")
    assert r["grundy"] == 1 and r["outcome"] == "N"
    assert r["winning_moves"] == [(1, 2), (2, 1)]
    options = {o["position"]: (o["grundy"], o["winning"]) for o in r["options"]}
    assert options == {
        (0, 2): (2, False),
        (1, 2): (0, True),
        (2, 0): (2, False),
        (2, 1): (0, True),
        (1, 1): (2, False),
    }
    assert nimlab.game("ryuoh(p=3)").analyse((2, 2))["options"] is None


def test_big_positions_as_python_ints():
    x, y = 10**40 + 17, 3**90
    p = 3
    want = (x + y) % p + p * ((x // p) ^ (y // p))  # Theorem 3.1
    g = nimlab.game(f"ryuoh(p={p})")
    assert g.value((x, y)) == want
    assert g.value(f"{x},{y}") == want
    assert nimlab.game("nim").value((2**200, 2**100 + 5)) == 2**200 ^ (2**100 + 5)
    # Wythoff's P-positions (⌊kφ⌋, ⌊kφ²⌋) for a huge k, in exact integers.
    k = 10**50
    a = (k + math.isqrt(5 * k * k)) // 2
    w = nimlab.game("wythoff")
    assert w.outcome((a, a + k)) == "P"
    r = w.analyse((a, a + k + 1))
    assert r["outcome"] == "N" and (a, a + k) in r["winning_moves"]


def test_take_and_break_sums_take_parts():
    g = nimlab.game("sum(octal(code=0.77),nim(heaps=1))")
    assert g.value("4;4") == g.value([[4], [4]]) == 5
    assert g.moves("4;4")["position"] == ((4,), (4,))


def test_periodicity_proven_and_rows():
    p = nimlab.game("subtraction(s={1,3,4})").periodicity()
    assert (p["preperiod"], p["period"], p["proven"]) == (0, 7, True)
    assert p["block"] == [0, 1, 0, 1, 2, 3, 2]
    rows = nimlab.game("wythoff").periodicity(600, rows=(0, 2))
    assert [y for y, _ in rows] == [0, 1, 2]
    assert rows[0][1]["period"] == 1 and rows[0][1]["saltus"] == 1  # G(x, 0) = x


def test_check_theorem_and_false_conjecture():
    g = nimlab.game("ryuoh(p=5)")
    good = g.check("(x+y)%5 + 5*((x/5) xor (y/5))", 100)
    assert good["holds"] and good["checked"] == 100 * 100 and good["mismatches"] == []
    bad = nimlab.game("ryuoh(p=3)").check("x xor y", 20)
    assert not bad["holds"] and bad["mismatch_count"] > 0
    first = bad["mismatches"][0]
    assert first["grundy"] != first["formula"]
    assert nimlab.game("nim").check(p_positions="x xor y == 0", size=32)["holds"]


def test_rules_file_default_claim():
    import conftest

    g = nimlab.game(rules=str(conftest.REPO / "examples" / "ryuoh.toml"))
    assert g.check(size=40)["holds"]


def test_catalog_and_theorems():
    names = [f["name"] for f in nimlab.games()]
    assert "ryuoh" in names and "wythoff" in names
    ryuoh = next(f for f in nimlab.games() if f["name"] == "ryuoh")
    assert "ryuoh.thm-3.1" in [t["id"] for t in ryuoh["theorems"]]
    ids = [t["id"] for t in nimlab.theorems()]
    assert "ryuoh.thm-3.1" in ids
    results = nimlab.verify("ryuoh", size=24)
    assert results and all(r["holds"] for r in results)


def test_sweep_shards_merge_to_the_whole():
    whole = nimlab.sweep("subtraction", 12, 3)
    parts = [nimlab.sweep("subtraction", 12, 3, shard=(i, 3)) for i in range(3)]
    assert sum(len(p) for p in parts) == len(whole) == math.comb(12, 3)
    assert nimlab.merge_sweep(parts) == whole


def test_a_search_split_at_the_root_merges_to_the_cli_value(cli_json):
    # Node Kayles on the 3x6 grid: A316632 gives 3 (n = 6). Four shards asking about
    # the nimbers below 4 merge to it, with winning moves `moves --search` lists.
    spec = "node-kayles(graph=grid(3,6))"
    g = nimlab.game(spec)
    shards = [g.search_shard("start", (i, 4)) for i in range(4)]
    assert [tuple(s["shard"]) for s in shards] == [(i, 4) for i in range(4)]
    assert all(s["below"] == 4 for s in shards)
    merged = g.merge_search("start", shards[::-1])
    assert merged["grundy"] == 3
    whole = cli_json("moves", spec, "start", "--search")
    assert merged["winning_moves"]
    assert set(map(str, merged["winning_moves"])) <= set(map(str, whole["winning_moves"]))
    # Each hit's option has the nimber the shard says, by `moves`.
    values = {str(o["position"]): o["grundy"] for o in whole["options"]}
    for s in shards:
        for h in s["hits"]:
            assert values[str(g.analyse(h["position"])["position"])] == h["grundy"]
    with pytest.raises(nimlab.InputError, match="missing"):
        g.merge_search("start", shards[:3])
    with pytest.raises(nimlab.InputError, match="not of"):
        nimlab.game("node-kayles(graph=grid(3,5))").merge_search("start", shards)
    low = [g.search_shard("start", (i, 2), below=3) for i in range(2)]
    with pytest.raises(nimlab.InputError, match="3 or more"):
        g.merge_search("start", low)
    with pytest.raises(nimlab.InputError):
        g.merge_search("start", [{"shard": [0, 1]}])
    with pytest.raises(nimlab.InputError):
        g.search_shard("start", (4, 4))


def test_census_is_the_clis_and_resumes(cli, tmp_path):
    import json

    lines = nimlab.census(2, up_to=4096)
    out = tmp_path / "c.jsonl"
    code, _, err = cli("census", "octal", "--digits", "2", "--up-to", "4096", "-o", str(out))
    assert code == 0, err
    from_cli = sorted((json.loads(l) for l in out.read_text().splitlines()), key=lambda l: l["index"])
    for l in from_cli:
        l.pop("schema", None)
    assert lines == from_cli
    # Shards, each resumed from half of its own lines, merge to the whole census.
    shards = []
    for i in range(3):
        part = nimlab.census(2, up_to=4096, shard=(i, 3))
        assert nimlab.census(2, up_to=4096, shard=(i, 3), done=part[::2]) == part
        shards.extend(part)
    merged = nimlab.merge_census(shards)
    assert merged["count"] == len(lines) and merged["games"] == lines
    assert merged["solved"] == sum(l["status"] == "solved" for l in lines)
    with pytest.raises(nimlab.InputError, match="other settings"):
        nimlab.census(2, up_to=2048, done=lines)


@pytest.mark.parametrize("spec", ["ryuoh(p=3)", "wythoff", "nim(heaps=3)"])
def test_repr_and_properties(spec):
    g = nimlab.game(spec)
    assert g.spec == spec and repr(g) == f'nimlab.game("{spec}")'
    assert len(g.coordinates) >= g.dimension


def test_prove_decides_for_every_position():
    p = nimlab.game("ryuoh(p=3)").prove("(x+y)%3 + 3*((x/3) xor (y/3))")
    assert p["result"]["proved"]
    assert [s["name"] for s in p["statements"]] == ["function", "defined", "SG1", "SG2"]
    bad = nimlab.game("ryuoh(p=3)").prove("x xor y")
    assert not bad["result"]["proved"]
    assert list(bad["result"]["position"]) == ["1", "1"]
    assert list(bad["result"]["confirmed"]["position"]) in [["1", "1"], ["0", "0"]]
    w = nimlab.game("wythoff").prove(p_positions="min(x,y) == floor_phi(abs(x-y))", numeration="fib")
    assert w["result"]["proved"]
    # a mixed radix with a repeating block (2, 3, 2, 3, …), read in base 6
    c = nimlab.game("takeaway(dim=2, moves=Cbeta(beta=[(2,3)..]))")
    assert c.prove("sigma(beta=[(2,3)..], x, y)", numeration="mixed([(2,3)..])")["result"]["proved"]
    with pytest.raises(nimlab.NimlabError):
        nimlab.game("nim").prove("x * y")
