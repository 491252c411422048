"""One document per query: the CLI's `--format json`, the web API (`nimlab serve`) and
Python return the same keys and values (Python's positions are tuples where JSON has
arrays)."""

import json
import subprocess
import urllib.error
import urllib.request

import pytest

import conftest
import nimlab


def plain(v):
    """Tuples as lists, so a Python answer compares with parsed JSON."""
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def without_schema(doc):
    doc = dict(doc)
    assert doc.pop("schema") == 1
    return doc


@pytest.fixture(scope="module")
def web():
    """POSTs to a `nimlab serve --port 0` of the CLI binary; returns the parsed answer."""
    binary = conftest.find_cli()
    if binary is None:
        pytest.skip("no nimlab CLI binary (cargo build --release -p nimlab, or NIMLAB_BIN)")
    server = subprocess.Popen(
        [binary, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        line = server.stdout.readline()
        base = line.split("http://", 1)[1].split("/", 1)[0]

        def post(path, body):
            req = urllib.request.Request(
                f"http://{base}/api/{path}",
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    return json.loads(r.read())
            except urllib.error.HTTPError as e:
                return json.loads(e.read())

        def get(path):
            with urllib.request.urlopen(f"http://{base}/api/{path}", timeout=60) as r:
                return json.loads(r.read())

        post.get = get
        yield post
    finally:
        server.terminate()
        server.wait(timeout=10)


POSITIONS = [
    ("wythoff", "3,5"),
    ("nim", "3,5,6"),
    ("ryuoh(p=3)", "7,4"),
    ("subtraction(s={1,3,4})", "10"),
    ("sum(octal(code=0.77),nim(heaps=1))", "4;4"),
    ("nplayer-nim(n=3)", "2,3"),
    ("wythoff", "123456789012345678901234567890,5"),
]


@pytest.mark.parametrize("spec, pos", POSITIONS)
@pytest.mark.parametrize("query", ["value", "moves"])
def test_value_and_moves(cli_json, web, spec, pos, query):
    want = without_schema(cli_json(query, spec, pos))
    assert without_schema(web(query, {"game": spec, "position": pos})) == want
    g = nimlab.game(spec)
    got = g.analyse(pos) if query == "value" else g.moves(pos)
    assert _bigs_equal(plain(got), want)
    if "players" in want:  # n-player: class, ranks and options as in the JSON
        assert {"class", "ranks", "rank"} <= set(got)


def _bigs_equal(py, js):
    """JSON writes integers beyond 2^53 - 1 as strings; Python has them as ints."""
    if isinstance(js, str) and isinstance(py, int):
        return js == str(py)
    if isinstance(js, list) and isinstance(py, (list, tuple)):
        return len(js) == len(py) and all(_bigs_equal(a, b) for a, b in zip(py, js))
    if isinstance(js, dict) and isinstance(py, dict):
        return js.keys() == py.keys() and all(_bigs_equal(py[k], js[k]) for k in js)
    return py == js


CHECKS = [
    ("ryuoh(p=3)", {"formula": "x xor y"}, 12),
    ("wythoff", {"formula": "x xor y"}, 10),
    ("nim", {"p_positions": "x == y"}, 16),
    ("ryuoh(p=5)", {"formula": "(x+y)%5 + 5*((x/5) xor (y/5))"}, 20),
]


@pytest.mark.parametrize("spec, claim, size", CHECKS)
def test_check(cli_json, web, spec, claim, size):
    flags = []
    for k, v in claim.items():
        flags += ["--" + k.replace("_", "-"), v]
    want = without_schema(cli_json("check", spec, *flags, "--size", str(size)))
    assert without_schema(web("check", {"game": spec, "size": size, **claim})) == want
    got = nimlab.game(spec).check(size=size, **claim)
    assert plain(got) == want


def _untimed(doc):
    """The document without its timings (a proof says how long each step took)."""
    if isinstance(doc, dict):
        return {k: _untimed(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_untimed(v) for v in doc]
    return doc


GUESSES = [
    ("subtraction(s={1,2,3})", {}, 32, None),
    ("nim", {"prove": True}, 6, 12),
    ("wythoff", {"p_positions": True}, 8, 16),
]


@pytest.mark.parametrize("spec, opts, size, verify", GUESSES)
def test_guess(cli_json, web, spec, opts, size, verify):
    flags = ["--size", str(size)]
    body = {"game": spec, "size": size}
    if verify is not None:
        flags += ["--verify-size", str(verify)]
        body["verify_size"] = verify
    if opts.get("prove"):
        flags.append("--prove")
        body["prove"] = True
    if opts.get("p_positions"):
        flags.append("--p-positions")
        body["claim"] = "p_positions"
    want = _untimed(without_schema(cli_json("guess", spec, *flags)))
    assert want["found"] or want["nearest"]
    assert _untimed(without_schema(web("guess", body))) == want
    got = nimlab.game(spec).guess(size, verify, **opts)
    assert _untimed(plain(got)) == want


PROOFS = [
    ("ryuoh(p=3)", {"formula": "(x+y)%3 + 3*((x/3) xor (y/3))"}),
    ("ryuoh(p=3)", {"formula": "x xor y"}),
    ("wythoff", {"p_positions": "min(x,y) == floor_phi(abs(x-y))", "numeration": "fib"}),
    # exact at the edge of 64 bits: false at (2^63, 0), confirmed by Bouton's theorem
    ("nim", {"formula": "if x > 9223372036854775807 then 0 else x xor y"}),
    # xor read two bits a digit
    ("nim", {"formula": "x xor y", "numeration": "base-4"}),
]


@pytest.mark.parametrize("spec, claim", PROOFS)
def test_prove(cli_json, web, spec, claim):
    flags = []
    for k, v in claim.items():
        flags += ["--" + k.replace("_", "-"), v]
    want = _untimed(without_schema(cli_json("prove", spec, *flags)))
    assert want["result"]["verdict"] in ("proved", "false")
    assert want["statements"][0]["name"] == "function"
    assert _untimed(without_schema(web("prove", {"game": spec, **claim}))) == want
    formula = claim.get("formula")
    rest = {k: v for k, v in claim.items() if k != "formula"}
    assert _untimed(plain(nimlab.game(spec).prove(formula, **rest))) == want


def test_rules_file_check_default_claim(cli_json, web):
    path = conftest.REPO / "examples" / "ryuoh.toml"
    want = without_schema(cli_json("check", "--rules", str(path), "--size", "30"))
    pasted = without_schema(web("check", {"rules": path.read_text(), "size": 30}))
    # The web names pasted rules so; everything else is the same.
    assert pasted.pop("game") == "rules(file=the pasted rules)"
    assert pasted == {k: v for k, v in want.items() if k != "game"}
    assert plain(nimlab.game(rules=str(path)).check(size=30)) == want


def test_catalog(cli_json, web):
    want = without_schema(cli_json("games"))
    assert without_schema(web.get("games")) == want
    assert plain(nimlab.games()) == want["games"]


def test_theorems_and_verify(cli_json):
    assert plain(nimlab.theorems()) == cli_json("theorems")["theorems"]
    want = cli_json("theorems", "verify", "--id", "ryuoh", "--size", "16")["results"]
    assert plain(nimlab.verify("ryuoh", size=16)) == want


@pytest.mark.parametrize("spec", ["subtraction(s={1,3,4})", "octal(code=0.07)", "octal(code=0.6)"])
def test_periodicity(cli_json, spec):
    want = without_schema(cli_json("periodicity", spec, "--up-to", "3000"))
    assert plain(nimlab.game(spec).periodicity(3000)) == want


def test_certificates(cli, cli_json, web, tmp_path):
    spec = "octal(code=0.137)"  # Dawson's chess: period 34, preperiod 53
    made = nimlab.game(spec).certificate(2000)
    path = tmp_path / "dawson.json"
    code, _, err = cli("periodicity", spec, "--up-to", "2000", "--certificate", str(path))
    assert code == 0, err
    assert made == json.loads(path.read_text())
    assert without_schema(web("certify", {"game": spec, "up_to": 2000})) == without_schema(made)
    want = without_schema(cli_json("certify", str(path)))
    assert want["holds"] and want["period"] == 34
    got = nimlab.certify(path.read_text(), name=str(path))
    assert got == want
    assert nimlab.certify(made, name=str(path)) == want
    on_web = without_schema(web("certify", {"certificate": made}))
    assert on_web == {**want, "file": "certificate"}
    # A stored field that contradicts what the game and the period give is refused.
    for key, wrong in [("bound", 1), ("max_take", 9), ("theorem", "Sprague"), ("max_heaps", 7)]:
        bad = {**made, key: wrong}
        with pytest.raises(nimlab.InputError, match=key):
            nimlab.certify(bad)
        path.write_text(json.dumps(bad))
        code, out, err = cli("certify", str(path))
        assert code == 2 and out == "" and key in err
        assert web("certify", {"certificate": bad})["error"]["kind"] == "input"


# One small position of every family that is not a transform (the transforms are built
# on these); `rules` is covered by the rules-file tests above.
LEAVES = {
    "nim": ("nim", "3,5,6"),
    "subtraction": ("subtraction(s={1,3,4})", "10"),
    "wythoff": ("wythoff", "3,5"),
    "ryuoh": ("ryuoh(p=3)", "7,4"),
    "fibonacci-nim": ("fibonacci-nim", "10"),
    "octal": ("octal(code=0.77)", "7"),
    "grundy-game": ("grundy-game", "9"),
    "chocolate": ("chocolate", "2,3,1"),
    "chocolate-staircase": ("chocolate-staircase(f=t/2)", "1,3"),
    "nplayer-nim": ("nplayer-nim(n=3)", "2,3"),
    "takeaway": ("takeaway", "3,5"),
    "welter": ("welter", "1,3,6"),
    "chomp": ("chomp", "3,2,1"),
    "cram": ("cram(rows=2,cols=3)", ".../.#."),
    "node-kayles": ("node-kayles(graph=cycle(5))", "{0,1,2,3}"),
    "chocolate-bar": ("chocolate-bar", "..##/B###"),
}
TRANSFORM_FAMILIES = {"misere", "pass", "sum", "nplayer", "rules"}
# Each transform of a game at a position (the pass flag after the position, a
# Wythoff position after the sum's ";").
TRANSFORMS = [
    ("{g}", "{p}"),
    ("misere({g})", "{p}"),
    ("pass({g})", "{p},1"),
    ("sum({g},wythoff)", "{p};1,2"),
    ("nplayer({g},n=3)", "{p}"),
    ("misere(pass({g}))", "{p},0"),
    ("nplayer(sum({g},wythoff),n=3)", "{p};1,2"),
]
EVERY_CASE = [
    (t.format(g=g), q.format(p=p)) for (g, p) in LEAVES.values() for (t, q) in TRANSFORMS
]


def test_every_family_has_a_leaf():
    families = {f["name"] for f in nimlab.games()}
    assert families - TRANSFORM_FAMILIES == set(LEAVES)


@pytest.mark.parametrize("spec, pos", EVERY_CASE)
def test_every_transform_of_every_family_on_every_surface(cli, web, spec, pos):
    """`value` and `moves` through the CLI, the web API and Python: the same document,
    or the same refusal (a transform that does not apply, e.g. misère of an n-player
    game)."""
    for query in ("value", "moves"):
        code, out, err = cli(query, spec, pos, "--format", "json")
        on_web = web(query, {"game": spec, "position": pos})
        g = None
        try:
            g = nimlab.game(spec)
            py = g.analyse(pos) if query == "value" else g.moves(pos)
            py_error = None
        except nimlab.NimlabError as e:
            py, py_error = None, str(e)
        if code == 2:
            message = err.strip().removeprefix("nimlab: error: ").split(" (see nimlab")[0]
            assert on_web["error"]["message"] == message, (spec, pos)
            assert py_error == message, (spec, pos)
            continue
        assert code == 0, err
        want = without_schema(json.loads(out))
        assert without_schema(on_web) == want, (spec, pos, query)
        assert _bigs_equal(plain(py), want), (spec, pos, query)
