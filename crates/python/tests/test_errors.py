"""Errors are Python exceptions carrying the CLI's one-line messages."""

import re

import pytest

import nimlab


def test_hierarchy():
    for cls in (nimlab.InputError, nimlab.TooLargeError, nimlab.TooLongError, nimlab.ContractError):
        assert issubclass(cls, nimlab.NimlabError)
    assert issubclass(nimlab.NimlabError, Exception)
    # Both idioms catch a bad argument.
    assert issubclass(nimlab.InputError, ValueError)
    assert nimlab.InputError.__module__ == "nimlab"
    with pytest.raises(ValueError, match="unknown game"):
        nimlab.game("chess")
    # Pickled by reference (Dask sends exceptions between processes).
    import pickle

    try:
        nimlab.game("chess")
    except nimlab.InputError as e:
        again = pickle.loads(pickle.dumps(e))
        assert type(again) is nimlab.InputError and str(again) == str(e)


def test_same_message_as_the_cli(cli):
    with pytest.raises(nimlab.InputError) as caught:
        nimlab.game("chess")
    code, out, err = cli("value", "chess", "1")
    assert code == 2 and out == ""
    assert err.strip() == f"nimlab: error: {caught.value}"
    with pytest.raises(nimlab.InputError) as caught:
        nimlab.game("ryuoh(p=3)").value("3,x")
    code, _, err = cli("value", "ryuoh(p=3)", "3,x")
    assert code == 2 and err.strip() == f"nimlab: error: {caught.value}"


@pytest.mark.parametrize(
    "spec, pos",
    [
        ("ryuoh(p=3)", (1, -2)),
        ("ryuoh(p=3)", (1, 2, 3)),
        ("ryuoh(p=3)", "1;2"),
        ("ryuoh(p=3)", ("1", 2)),
        ("ryuoh(p=3)", 1.5),
        ("wythoff", "３,5"),
    ],
)
def test_bad_positions(spec, pos):
    with pytest.raises(nimlab.InputError):
        nimlab.game(spec).value(pos)


def test_bad_specs_and_formulas():
    with pytest.raises(nimlab.InputError, match="ryuoh"):
        nimlab.game("ryuoh(p=0)")
    g = nimlab.game("ryuoh(p=3)")
    with pytest.raises(nimlab.InputError, match=re.escape("(in 'x +')")):
        g.check("x +", 10)
    with pytest.raises(nimlab.InputError):
        g.check("z", 10)
    with pytest.raises(nimlab.InputError):
        g.table(0)
    with pytest.raises(nimlab.InputError):
        nimlab.sweep("subtraction", 10, 2, shard=(3, 3))
    with pytest.raises(nimlab.InputError):
        nimlab.verify("no-such-theorem")


def test_limits_are_errors_not_hours_of_work():
    with pytest.raises(nimlab.TooLargeError, match="memory limit"):
        nimlab.game("wythoff", max_memory="1M").table(100_000)
    with pytest.raises(nimlab.InputError):
        nimlab.game("wythoff", max_memory="lots")


def test_bad_arguments_are_input_errors():
    g = nimlab.game("subtraction(s={1,3,4})")
    for call in (
        lambda: g.table(-1),
        lambda: g.table(2**70),
        lambda: g.table("8"),
        lambda: g.periodicity(-1),
        lambda: g.check("n % 2", -5),
        lambda: nimlab.game(123),
        lambda: nimlab.verify(size=-1),
        lambda: nimlab.sweep("subtraction", -1, 2),
        lambda: nimlab.sweep("subtraction", 10, 2**70),
        lambda: nimlab.sweep("subtraction", 10, 2, shard=(-1, 2)),
        lambda: nimlab.sweep("subtraction", 10, 2, shard="0/2"),
        lambda: nimlab.sweep("wythoff", 10, 2),
        lambda: nimlab.merge_sweep([[{"s": [1, 2], "preperiod": -1, "period": 3}]]),
        lambda: nimlab.merge_sweep([[{"set": [1, 2]}]]),
        lambda: nimlab.census(1, base=0),
        lambda: nimlab.census(1, base=37),
        lambda: nimlab.census(-1),
        lambda: nimlab.census(1, up_to=0),
        lambda: nimlab.census(1, whole=[1]),
        lambda: nimlab.census(1, shard=(2, 2)),
        lambda: nimlab.merge_census([{"code": "0.9"}]),
    ):
        with pytest.raises(nimlab.InputError):
            call()


def test_out_of_range_and_mistyped_arguments_are_input_errors_with_a_message():
    g = nimlab.game("octal(code=0.07)")
    cases = [
        (lambda: g.misere_quotient(max_heap=-1), "max_heap must be a natural number"),
        (lambda: g.misere_quotient(max_heap=2**64), "max_heap must be a natural number below 2^64, got 18446744073709551616"),
        (lambda: g.misere_quotient(10, max_elements=-1), "max_elements must be a natural number"),
        (lambda: g.misere_quotient(max_heap="30"), "max_heap must be an int, got str"),
        (lambda: g.certificate(up_to=-1), "up_to must be a natural number"),
        (lambda: g.certificate(up_to=2**64), "up_to must be a natural number below 2^64, got 18446744073709551616"),
        (lambda: g.check(b"x", size=10), "formula must be text (a str), got bytes"),
        (lambda: g.check(p_positions=3, size=10), "p_positions must be text"),
        (lambda: nimlab.game("nim").prove("x xor y", numeration=5), "numeration must be text (a str), got int"),
        (lambda: nimlab.game("nim").prove(1.5), "formula must be text"),
    ]
    for call, message in cases:
        with pytest.raises(nimlab.InputError, match=re.escape(message)):
            call()


@pytest.mark.parametrize(
    "pos, kind",
    [({1: 2}, "dict"), ({3, 5}, "set"), (frozenset({3, 5}), "frozenset"), ((True, 2), "bool"), (True, "bool"), ([{1: 2}], "dict")],
)
def test_bools_dicts_and_sets_are_not_positions(pos, kind):
    with pytest.raises(nimlab.InputError, match=kind):
        nimlab.game("nim").value(pos)
    # The ints themselves are positions.
    assert nimlab.game("nim").value((1, 2)) == 3


def test_bytes_are_not_positions():
    g = nimlab.game("wythoff")
    for pos in (b"3,5", bytearray(b"3,5")):
        with pytest.raises(nimlab.InputError, match="bytes"):
            g.value(pos)


def test_many_heaps_are_answered_within_the_limit():
    many = [1] * 20001
    for spec in ("nim", "misere(nim)", "octal(code=0.137)"):
        a = nimlab.game(spec, max_memory="100M").analyse(many)
        assert a["grundy"] is not None


def test_n_player_analysis_has_classes_and_ranks():
    a = nimlab.game("nplayer(wythoff,n=3)").analyse((3, 5))
    # n players: no two-player outcome in the document (the CLI's JSON has none either).
    assert a.get("outcome") is None
    assert a["players"] == 3
    assert sorted(a["ranks"]) == [1, 2, 3]
    assert a["rank"] == a["ranks"][0]
    assert isinstance(a["class"], int)


SLOW_RULES = 'name = "slow"\ndimension = 2\nmoves = "c0 >= 0 && c1 >= 0"\n'

# Each child starts a computation of tens of seconds and reports how it ended. It
# restores Python's own SIGINT handler: a parent started in the background by a
# non-interactive shell passes SIGINT on ignored, and Python then installs none.
CHILD = """
import signal, sys, nimlab
signal.signal(signal.SIGINT, signal.default_int_handler)
g = nimlab.game(rules=sys.argv[1])
print("ready", flush=True)
try:
    if sys.argv[2] == "table":
        g.table(240)
    elif sys.argv[2] == "sweep":
        nimlab.sweep("subtraction", 70, 4)
    elif sys.argv[2] == "census":
        nimlab.census(3, up_to=2**18)
    elif sys.argv[2] == "misere_quotient":
        nimlab.game("grundy-game").misere_quotient(40)
    elif sys.argv[2] == "nplayer":
        nimlab.game("nplayer(nim,n=5)").analyse([100] * 49 + [99])
    else:
        g.value((239, 239))
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.parametrize("what", ["table", "value", "sweep", "census", "misere_quotient", "nplayer"])
def test_ctrl_c_interrupts_a_computation_promptly(tmp_path, what):
    import signal
    import subprocess
    import sys
    import time

    rules = tmp_path / "slow.toml"
    rules.write_text(SLOW_RULES)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(rules), what],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)  # into the computation (the first table also loads NumPy's API)
    child.send_signal(signal.SIGINT)
    # The time-out only guards against a hang; the verdict is the child's report.
    out, err = child.communicate(timeout=120)
    assert "interrupted" in out, (out, err)
    assert "finished" not in out, (out, err)
    assert "PanicException" not in err, err


def test_the_misere_quotient_element_limit_is_named_as_a_keyword():
    game = nimlab.game("octal(code=0.07)")
    with pytest.raises(nimlab.InputError, match=r"max_elements=100\b.*known to heap"):
        game.misere_quotient(30, max_elements=100)
    with pytest.raises(nimlab.InputError, match="max_elements"):
        game.misere_quotient(30, max_elements=0)
    assert game.misere_quotient(30, max_elements=4096)["size"] == 360


def test_a_failed_read_is_an_os_error_with_its_errno(tmp_path):
    # Not the input's fault: Python's own OSError, the subclass its errno names.
    missing = tmp_path / "no-such-rules.toml"
    with pytest.raises(FileNotFoundError) as caught:
        nimlab.game(rules=str(missing))
    assert caught.value.errno == 2
    assert "cannot read rules file" in str(caught.value)
    with pytest.raises(IsADirectoryError):
        nimlab.game(rules=str(tmp_path))
