"""Errors are Python exceptions carrying the CLI's one-line messages."""

import re

import pytest

import nimlab


def test_hierarchy():
    for cls in (nimlab.InputError, nimlab.TooLargeError, nimlab.TooLongError, nimlab.ContractError):
        assert issubclass(cls, nimlab.NimlabError)
    assert issubclass(nimlab.NimlabError, Exception)


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
