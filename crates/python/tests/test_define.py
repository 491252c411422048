"""Games defined in Python (`nimlab.define`) answer as the catalog's games do, and
rules files may be given as text."""

import json

import pytest

import nimlab


def subtraction_123(n):
    return [n - t for t in (1, 2, 3) if t <= n]


def nim_options(heaps):
    """Nim on a tuple of heaps (in order; no frozensets)."""
    out = []
    for i, h in enumerate(heaps):
        for k in range(h):
            out.append(heaps[:i] + (k,) + heaps[i + 1 :])
    return out


def sorted_nim_options(heaps):
    """Nim on sorted tuples of non-empty heaps: one position per multiset."""
    out = set()
    for i, h in enumerate(heaps):
        for k in range(h):
            rest = heaps[:i] + ((k,) if k else ()) + heaps[i + 1 :]
            out.add(tuple(sorted(rest)))
    return out


def test_a_subtraction_game_has_the_catalog_values():
    mine = nimlab.define(subtraction_123, name="take-1-2-3")
    catalog = nimlab.game("subtraction(s={1,2,3})")
    for n in range(40):
        assert mine.value(n) == catalog.value(n), n
        assert mine.outcome(n) == catalog.outcome(n), n


def test_the_documents_are_the_catalog_games_with_python_positions():
    mine = nimlab.define(subtraction_123, name="take-1-2-3")
    catalog = nimlab.game("subtraction(s={1,2,3})")
    a, b = mine.moves(9), catalog.moves(9)
    assert set(a) == set(b)
    assert a["game"] == "take-1-2-3"
    assert a["position"] == 9
    assert (a["grundy"], a["outcome"]) == (b["grundy"], b["outcome"])
    assert a["winning_moves"] == [8]
    assert b["winning_moves"] == [(8,)]
    assert sorted(o["position"] for o in a["options"]) == [6, 7, 8]
    assert {o["position"]: o["grundy"] for o in a["options"]} == {
        o["position"][0]: o["grundy"] for o in b["options"]
    }
    assert mine.analyse(9)["winning_moves"] == [8]
    assert mine.analyse(8)["winning_moves"] == []
    assert repr(mine) == 'nimlab.define(…, name="take-1-2-3")'
    assert mine.spec == "take-1-2-3"


def test_nim_on_tuples_is_nim():
    mine = nimlab.define(nim_options, name="tuple-nim")
    nim = nimlab.game("nim")
    for heaps in [(3, 5), (1, 2, 3), (4, 4), (0,), (2, 7, 5)]:
        assert mine.value(heaps) == nim.value(heaps), heaps
    moves = mine.moves((1, 2, 4))
    assert moves["winning_moves"] == [(1, 2, 3)]
    assert all(isinstance(o["position"], tuple) for o in moves["options"])


def test_a_game_over_strings():
    # Remove one letter, or two equal neighbours: positions are strings.
    def options(word):
        out = {word[:i] + word[i + 1 :] for i in range(len(word))}
        out |= {word[:i] + word[i + 2 :] for i in range(len(word) - 1) if word[i] == word[i + 1]}
        return out

    g = nimlab.define(options, name="letters")
    # One letter removed per move when no two neighbours agree: the parity of the length.
    assert g.value("abc") == 1
    assert g.value("abcd") == 0
    assert g.value("") == 0
    report = g.moves("aab")
    assert report["position"] == "aab"
    assert "b" in [o["position"] for o in report["options"]]
    assert g.outcome("aab") == ("N" if g.value("aab") else "P")


def test_misere_of_a_defined_game_is_the_catalog_misere():
    mine = nimlab.define(nim_options, name="tuple-nim")
    catalog = nimlab.game("misere(nim)")
    both = [nimlab.misere(mine), mine.misere()]
    for heaps in [(1,), (1, 1), (1, 1, 1), (2, 2), (3, 1), (0,), (2, 3, 1)]:
        for g in both:
            assert g.value(heaps) == catalog.value(heaps), heaps
    assert both[0].spec == "misere(tuple-nim)"
    with pytest.raises(nimlab.InputError, match="already in misère play"):
        nimlab.misere(both[0])


def test_a_sum_with_a_catalog_game():
    mine = nimlab.define(subtraction_123, name="take-1-2-3")
    nim = nimlab.game("nim")
    for g in [mine + nim, nimlab.sum(mine, nim)]:
        assert g.spec == "sum(take-1-2-3,nim)"
        for n, heaps in [(5, (3, 5)), (6, (2,)), (9, (1, 2)), (0, (0,))]:
            assert g.value((n, heaps)) == (n % 4) ^ nim.value(heaps), (n, heaps)
        assert g.value((5, "3,5")) == 1 ^ 6
        report = g.moves((5, (3,)))
        assert report["position"] == (5, (3,))
        assert report["grundy"] == 1 ^ 3
        for m in report["winning_moves"]:
            assert g.value(m) == 0
        assert (5, (1,)) in report["winning_moves"]
        assert (4, (3,)) not in report["winning_moves"]
    # Two defined games, and a sum of sums.
    two = nimlab.sum(mine, mine)
    assert two.value((7, 7)) == 0
    assert two.value((7, 6)) == 3 ^ 2
    with pytest.raises(nimlab.InputError, match="one per part"):
        (mine + nim).value(5)
    with pytest.raises(nimlab.InputError, match="misère"):
        nimlab.sum(mine.misere(), nim)
    assert (mine + nim).misere().value((1, (0,))) == 0


def test_sums_and_misere_of_catalog_games_are_the_catalog_transforms():
    nim, wythoff = nimlab.game("nim(heaps=2)"), nimlab.game("wythoff")
    mine = nimlab.sum(nim, wythoff)
    catalog = nimlab.game("sum(nim(heaps=2),wythoff)")
    assert mine.spec == catalog.spec
    for pos in ["3,5,1,2", (1, 2, 3, 4), "0,0,2,1"]:
        assert mine.analyse(pos) == catalog.analyse(pos)
    assert (mine.table(6) == catalog.table(6)).all()
    assert nimlab.misere(nim).moves((1, 1)) == nimlab.game("misere(nim(heaps=2))").moves((1, 1))
    with pytest.raises(nimlab.InputError, match="n players"):
        nimlab.misere(nimlab.game("nplayer(nim,n=3)"))
    with pytest.raises(nimlab.InputError, match="takes games"):
        nimlab.sum(nim, "wythoff")


def test_misere_of_a_sum_with_a_defined_part():
    mine = nimlab.define(nim_options, name="tuple-nim")
    catalog = nimlab.game("misere(sum(nim(heaps=2),nim(heaps=1)))")
    g = nimlab.misere(mine + nimlab.game("nim(heaps=1)"))
    for a, b, c in [(1, 1, 1), (1, 1, 0), (2, 2, 0), (3, 1, 2)]:
        assert g.value(((a, b), (c,))) == catalog.value((a, b, c)), (a, b, c)


def test_components_give_the_same_values():
    calls = []

    def options(heaps):
        calls.append(heaps)
        return sorted_nim_options(heaps)

    def components(heaps):
        return [(h,) for h in heaps]

    plain = nimlab.define(sorted_nim_options, name="heaps")
    split = nimlab.define(options, name="heaps", components=components)
    assert split.capabilities == ["regions"]
    assert plain.capabilities == []
    nim = nimlab.game("nim")
    for heaps in [(1, 2, 3), (3, 5, 6), (2, 2), (1, 4, 4, 7)]:
        assert split.value(heaps) == plain.value(heaps) == nim.value(heaps), heaps
    assert split.moves((1, 2, 4))["winning_moves"] == plain.moves((1, 2, 4))["winning_moves"]
    # Only the asked positions and single heaps are listed: the parts, not the whole.
    asked = {(1, 2, 3), (3, 5, 6), (2, 2), (1, 4, 4, 7), (1, 2, 4)}
    assert calls and all(len(h) <= 1 or h in asked for h in calls), sorted(set(calls))
    # Many heaps: the engine values heaps, never their combinations.
    calls.clear()
    big = tuple(range(1, 40))
    assert split.value(big) == nim.value(big)
    assert all(len(h) <= 1 or h == big for h in calls)
    # Misère play cannot split: every position is listed, and the values are misère's.
    assert split.misere().value((1, 1, 1)) == nimlab.game("misere(nim)").value((1, 1, 1))
    assert split.misere().value((2, 3)) == nimlab.game("misere(nim)").value((2, 3))
    assert (split + nim).value(((1, 2), (3,))) == 0


def test_components_that_are_not_independent_are_refused():
    def options(heaps):
        return sorted_nim_options(heaps)

    g = nimlab.define(options, name="heaps", components=lambda heaps: [heaps, heaps])
    with pytest.raises(nimlab.ContractError, match="independent"):
        g.value((1, 2))
    # In misère play (every position listed) the parts' longest plays are checked.
    bad = nimlab.define(options, name="heaps", components=lambda heaps: [heaps[:1], heaps[:1]])
    with pytest.raises(nimlab.ContractError, match="independent"):
        bad.misere().value((1, 2))


def test_canonical_gives_the_same_values():
    seen = set()

    def options(heaps):
        seen.add(heaps)
        return nim_options(heaps)

    def canonical(heaps):
        return tuple(sorted(heaps))

    g = nimlab.define(options, name="nim", canonical=canonical)
    nim = nimlab.game("nim")
    for heaps in [(3, 1, 2), (5, 3), (2, 2, 1)]:
        assert g.value(heaps) == nim.value(heaps), heaps
    report = g.moves((3, 1, 2))
    assert report["winning_moves"] == nimlab.define(nim_options, name="n").moves((3, 1, 2))[
        "winning_moves"
    ]
    # A canonical form that is not the same game is refused.
    bad = nimlab.define(nim_options, name="bad", canonical=lambda heaps: (0,) * len(heaps))
    with pytest.raises(nimlab.ContractError, match="canonical"):
        bad.value((2, 1))


def test_a_cycle_is_a_clear_error():
    g = nimlab.define(lambda n: [(n + 1) % 3], name="circle")
    with pytest.raises(nimlab.ContractError, match="back to itself") as e:
        g.value(0)
    assert "circle" in str(e.value) and "0 → 1 → 2 → 0" in str(e.value)
    # Also a move to itself.
    with pytest.raises(nimlab.ContractError, match="back to itself"):
        nimlab.define(lambda n: [n], name="loop").value(4)


def test_an_exception_in_the_callable_propagates():
    class Mine(Exception):
        pass

    def options(n):
        if n == 3:
            raise Mine("no options for three")
        return [n - 1] if n else []

    g = nimlab.define(options, name="broken")
    with pytest.raises(Mine, match="no options for three"):
        g.value(5)
    # The game stays usable below the broken position, and the error repeats.
    assert g.value(2) == 0
    with pytest.raises(Mine):
        g.value(4)


def test_bad_returns_and_positions_are_input_errors():
    with pytest.raises(nimlab.InputError, match="not an iterable"):
        nimlab.define(lambda n: None, name="none").value(1)
    with pytest.raises(nimlab.InputError, match="return \\[s\\]"):
        nimlab.define(lambda s: s[1:], name="str").value("ab")
    with pytest.raises(nimlab.InputError, match="hashable"):
        nimlab.define(lambda n: [[n - 1]] if n else [], name="lists").value(2)
    with pytest.raises(nimlab.InputError, match="hashable"):
        nimlab.define(subtraction_123, name="x").value([1, 2])
    with pytest.raises(nimlab.InputError, match="function"):
        nimlab.define(3, name="x")
    with pytest.raises(TypeError):
        nimlab.define(subtraction_123)  # name is required
    with pytest.raises(nimlab.InputError, match="numbers"):
        nimlab.define(subtraction_123, name="x").table(10)


def test_text_shows_the_repr():
    # Where the engine writes a defined position as text (the JSON of the CLI and the
    # web, messages, method details) it writes its repr.
    g = nimlab.define(nim_options, name="tuple-nim") + nimlab.game("nim")
    report = g.analyse(((1, 2), (3,)))
    assert report["method"] == "components"
    assert "tuple-nim at (1, 2)" in report["method_detail"], report["method_detail"]


def test_threads_share_a_defined_game():
    from concurrent.futures import ThreadPoolExecutor

    g = nimlab.define(nim_options, name="tuple-nim")
    nim = nimlab.game("nim")
    cases = [(a, b, c) for a in range(4) for b in range(5) for c in range(6)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(g.value, cases))
    assert got == [nim.value(c) for c in cases]


def test_the_memory_limit_applies():
    g = nimlab.define(lambda n: [n - 1] if n else [], name="chain", max_memory=1 << 16)
    with pytest.raises(nimlab.TooLargeError):
        g.value(100_000)


# The child restores Python's own SIGINT handler: a parent started in the background by
# a non-interactive shell passes SIGINT on ignored, and Python then installs none.
CHILD = """
import signal, sys
import nimlab
signal.signal(signal.SIGINT, signal.default_int_handler)

def options(n):
    return range(n)

g = nimlab.define(options, name="slow")
print("ready", flush=True)
try:
    g.value(10**5)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_interrupts_a_defined_game():
    import signal
    import subprocess
    import sys
    import time

    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    started = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert "interrupted" in out, (out, err)
    assert time.monotonic() - started < 10
    assert "PanicException" not in err, err


RULES = """name = "take-1-2-4"
dimension = 1
moves = [[1], [2], [4]]
"""


def test_rules_given_as_text(tmp_path):
    path = tmp_path / "take.toml"
    path.write_text(RULES)
    from_file = nimlab.game(rules=path)
    from_text = nimlab.game(rules_text=RULES)
    inline = nimlab.game(rules=RULES)  # a str with line breaks is the text itself
    catalog = nimlab.game("subtraction(s={1,2,4})")
    for n in range(30):
        assert from_text.value(n) == from_file.value(n) == inline.value(n) == catalog.value(n)
    with pytest.raises(nimlab.InputError, match="rules_text"):
        nimlab.game(rules_text="dimension = ")
    with pytest.raises(nimlab.InputError, match="not several"):
        nimlab.game("nim", rules_text=RULES)
    with pytest.raises(nimlab.InputError, match="not both"):
        nimlab.game(rules=RULES, rules_text=RULES)
