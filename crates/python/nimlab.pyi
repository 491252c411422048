"""nimlab: Sprague–Grundy values, tables, conjecture checks and theorems for impartial
games, from the same Rust library as the ``nimlab`` command line.

>>> import nimlab
>>> g = nimlab.game("ryuoh(p=3)")
>>> g.value("4,7")          # Table 1 of the Ryuoh paper
11
>>> g.table(13).shape       # rows y, columns x
(13, 13)
"""

from os import PathLike
from typing import (
    Any,
    Callable,
    Dict,
    Hashable,
    Iterable,
    List,
    Optional,
    Sequence,
    Tuple,
    TypedDict,
    Union,
    overload,
)

import numpy as np
import numpy.typing as npt

__version__: str

NOT_A_POSITION: int
"""The value of table cells that are not positions (2**32 − 1)."""

Position = Union[str, int, Sequence[int], Sequence[Sequence[int]], Hashable]
"""Text as the CLI reads it ("3,5", "4;1,1"), or non-negative ints of any size
(a sequence of sequences for the parts of a sum of take-and-break games). Bools,
bytes, dicts and sets are not positions (InputError). A game made by :func:`define`
takes its positions as the Python values themselves (any hashable value), and a sum
with such a part a tuple of one position per part."""

PositionOut = Union[Tuple[int, ...], Tuple[Tuple[int, ...], ...], Any]

class NimlabError(Exception):
    """Every error nimlab reports; the message is the one the CLI prints."""

class InputError(NimlabError, ValueError):
    """Malformed or out-of-range input: unknown game, bad parameter, position, formula.
    Every bad argument raises it (never OverflowError or TypeError); it is also a
    ValueError, so ``except ValueError`` catches it too."""

class TooLargeError(NimlabError):
    """The computation would need more memory than ``max_memory`` allows."""

class TooLongError(NimlabError):
    """The computation would take far too long; ``force=True`` runs it anyway."""

class ContractError(NimlabError):
    """A game broke the game contract (e.g. a move that might never end the game)."""

# A failed read or write (a rules file that is missing or a directory) raises Python's
# own OSError, the subclass its errno names (FileNotFoundError, IsADirectoryError).

# An option: ``grundy`` and ``winning`` (two players) or ``class`` and ``rank`` (n
# players). Written as a call because ``class`` is a Python keyword.
OptionInfo = TypedDict(
    "OptionInfo",
    {
        "position": PositionOut,
        "grundy": Optional[int],
        "winning": bool,
        "class": int,
        "rank": int,
    },
    total=False,
)

# The answer about one position: the keys and values of ``nimlab value --format json``
# (and of the web API), positions as tuples. Two-player games have grundy, outcome,
# winning_moves, all_winning_moves; n-player games have players, ranking, class, rank,
# ranks, best_moves, all_best_moves.
Report = TypedDict(
    "Report",
    {
        "game": str,
        "position": PositionOut,
        "grundy": Optional[int],
        "outcome": str,
        "winning_moves": List[PositionOut],
        "all_winning_moves": bool,
        "players": int,
        "ranking": str,
        "class": int,
        "rank": int,
        "ranks": List[int],
        "best_moves": List[PositionOut],
        "all_best_moves": bool,
        "method": str,
        "method_detail": str,
        "options": Optional[List[OptionInfo]],
        "options_note": Optional[str],
    },
    total=False,
)

# A position where the claim differs: ``grundy`` (two players) or ``class`` (the class
# index of an n-player game), and what the formula gave.
Mismatch = TypedDict(
    "Mismatch",
    {"position": Tuple[int, ...], "grundy": int, "class": int, "formula": int},
    total=False,
)

class CheckReport(TypedDict):
    game: str
    claim: str
    formula: str
    compared: str
    box: List[int]
    checked: int
    holds: bool
    mismatch_count: int
    mismatches: List[Mismatch]

class PeriodicityReport(TypedDict, total=False):
    """As ``nimlab periodicity --format json``: preperiod, period, … are None when no
    period was found below ``checked_up_to``."""

    game: str
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    values: Optional[List[int]]
    block: Optional[List[int]]
    proven: bool
    proof: Optional[str]
    checked_up_to: int
    method: str

class ShardHit(TypedDict):
    grundy: int
    index: int
    position: str

class SearchShard(TypedDict):
    """One shard of a search split at the root (:meth:`Game.search_shard`), as
    ``nimlab value GAME POS --shard i/k --format json`` writes it."""

    game: str
    position: str
    shard: List[int]
    options_total: int
    below: int
    hits: List[ShardHit]
    nodes: int

class SweepRow(TypedDict):
    s: List[int]
    preperiod: Optional[int]
    period: Optional[int]

class Game:
    """A game of the catalog or of a rules file, made by :func:`game`; or a game
    defined in Python (:func:`define`, whose positions are Python values), a sum
    (:func:`sum`, ``g + h``) or misère play (:func:`misere`, :meth:`misere`)."""

    @property
    def spec(self) -> str:
        """Canonical spec, e.g. ``ryuoh(p=3)``."""
    @property
    def dimension(self) -> int:
        """How many coordinates a position has."""
    @property
    def coordinates(self) -> List[str]:
        """Coordinate names as formulas use them, e.g. ``['x', 'y']``."""
    @property
    def capabilities(self) -> List[str]:
        """What the game can do beyond listing options (closed forms, kernels, …)."""
    def value(self, pos: Position) -> Optional[int]:
        """Grundy value of ``pos`` (any size), or None when only the outcome is known."""
    def outcome(self, pos: Position) -> str:
        """'P' (the player to move loses) or 'N' (the player to move wins)."""
    def analyse(self, pos: Position) -> Report:
        """Value, outcome, winning moves and the method that found them."""
    def moves(self, pos: Position) -> Report:
        """As :meth:`analyse`, plus every option with its value (``options``)."""
    def search_shard(
        self, pos: Position, shard: Tuple[int, int], *, below: Optional[int] = None
    ) -> SearchShard:
        """Shard ``(i, k)`` of a search split at the root: which nimbers below
        ``below`` (default 4) the options of ``pos`` whose index is ≡ i (mod k) have."""
    def merge_search(self, pos: Position, shards: List[SearchShard]) -> Report:
        """The answer about ``pos`` from the k shards of :meth:`search_shard`."""
    def __add__(self, other: Game) -> Game:
        """The disjunctive sum ``nimlab.sum(self, other)``."""
    def misere(self) -> Game:
        """Misère play of this game (``nimlab.misere(self)``)."""
    @overload
    def table(
        self, size: int, *, masked: bool = True
    ) -> Union[npt.NDArray[np.uint32], np.ma.MaskedArray[Any, np.dtype[np.uint32]]]:
        """The Grundy table over [0, size)^d, shape (y, x) for two coordinates; a
        table with non-positions is a masked array (them masked) unless masked=False,
        which leaves ``NOT_A_POSITION`` in those cells."""
    @overload
    def table(
        self, size: int, *, with_method: bool, masked: bool = True
    ) -> Union[
        npt.NDArray[np.uint32],
        np.ma.MaskedArray[Any, np.dtype[np.uint32]],
        Tuple[Union[npt.NDArray[np.uint32], np.ma.MaskedArray[Any, np.dtype[np.uint32]]], str],
    ]: ...
    def check(
        self,
        formula: Optional[str] = None,
        size: Optional[int] = None,
        *,
        p_positions: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> CheckReport:
        """Compare a claimed Grundy formula (or P-position predicate) with the values
        computed from the rules on the box [0, size)^d (``nimlab check``; size and limit
        default to the CLI's: 64 and 1000)."""
    def guess(
        self,
        size: Optional[int] = None,
        verify_size: Optional[int] = None,
        *,
        p_positions: bool = False,
        prove: bool = False,
    ) -> Dict[str, Any]:
        """Formulas for the Grundy values (or P-position predicates) that fit a training
        window and a verification window, simplest first; with ``prove=True`` each is
        proved for all positions (``nimlab guess --format json``)."""
    def misere_quotient(
        self, max_heap: Optional[int] = 30, max_elements: Optional[int] = 16384
    ) -> Dict[str, Any]:
        """The misère quotient of a take-and-break game to ``max_heap`` (``nimlab
        misere-quotient --format json``): size, P-portion, presentation, heap elements.
        Its lists and candidate tables count against ``max_memory``; Ctrl-C stops it."""
    def prove(
        self,
        formula: Optional[str] = None,
        *,
        p_positions: Optional[str] = None,
        numeration: Optional[str] = "base2",
    ) -> Dict[str, Any]:
        """Prove a Grundy formula (or P-position predicate) for EVERY position with
        automata: the document of ``nimlab prove --format json`` (statements, automata,
        and ``result``: proved, or the least counterexample re-checked by the solver).
        Raises InputError when not expressible."""
    @overload
    def periodicity(self, up_to: Optional[int] = None) -> PeriodicityReport: ...
    @overload
    def periodicity(
        self, up_to: Optional[int] = None, *, rows: Tuple[int, int]
    ) -> List[Tuple[int, Optional[PeriodicityReport]]]: ...
    def certificate(self, up_to: Optional[int] = None) -> dict[str, Any]:
        """The certificate of the period proven below ``up_to`` (octal and hexadecimal
        games; ``nimlab periodicity --certificate``); check it with :func:`certify`."""

def game(
    spec: Optional[str] = None,
    *,
    rules: Union[str, "PathLike[str]", None] = None,
    rules_text: Optional[str] = None,
    max_memory: Union[int, str, None] = None,
    force: bool = False,
) -> Game:
    """The game named by ``spec`` (e.g. ``'subtraction(s={1,3,4})'``) or read from a
    rules file: ``rules=PATH``, or its TOML text (``rules_text=TEXT``, or ``rules=``
    a str with a line break)."""

def define(
    options: Callable[[Any], Iterable[Hashable]],
    *,
    name: str,
    canonical: Optional[Callable[[Any], Hashable]] = None,
    components: Optional[Callable[[Any], Iterable[Hashable]]] = None,
    max_memory: Union[int, str, None] = None,
    force: bool = False,
) -> Game:
    """A game defined in Python: ``options(pos)`` lists the positions one move from
    ``pos``; positions are any hashable values, given and returned as themselves.
    ``canonical(pos)`` (one representative of equal positions) and ``components(pos)``
    (independent parts, positions of the same game) are optional. A position reached
    again raises ContractError; the callables' exceptions propagate."""

def sum(
    *games: Game, max_memory: Union[int, str, None] = None, force: Optional[bool] = None
) -> Game:
    """The disjunctive sum of ``games``; with a defined part, positions are tuples
    with one position per part."""

def misere(game: Game) -> Game:
    """Misère play of ``game`` (the last player to move loses)."""

def games() -> List[dict[str, Any]]:
    """The catalog, one dict per family: the objects of ``nimlab games --format json``
    (theorems as {id, statement})."""

def certify(
    certificate: Union[str, dict[str, Any]],
    *,
    name: str = "certificate",
    max_memory: Union[int, str, None] = None,
) -> dict[str, Any]:
    """Check a periodicity certificate (its text or dict), as ``nimlab certify``:
    file, game, holds, preperiod, period, bound, sha256, refuted."""

def theorems() -> List[dict[str, str]]:
    """Every registered theorem: id, statement, source."""

def verify(
    id: Optional[str] = None,
    *,
    size: int = 64,
    max_memory: Union[int, str, None] = None,
    force: bool = False,
) -> List[dict[str, Any]]:
    """Verify theorems (id or id prefix; all by default) against brute force."""

def sweep(
    family: str,
    max: int,
    size: int,
    *,
    shard: Optional[Tuple[int, int]] = None,
    up_to: Optional[int] = None,
    max_memory: Union[int, str, None] = None,
) -> List[SweepRow]:
    """Proven periods of every member of a family (``nimlab sweep``), one shard
    (default ``(0, 1)``: all), periods searched below ``up_to`` (default 10**7): the
    ``results`` of the CLI's JSON. Ctrl-C stops it."""

def merge_sweep(parts: Sequence[Sequence[SweepRow]]) -> List[SweepRow]:
    """Join the shards of a sweep into the unsharded result, in its order."""

def census(
    digits: int,
    *,
    base: Optional[int] = None,
    whole: Optional[Sequence[int]] = None,
    up_to: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    done: Optional[Sequence[dict[str, Any]]] = None,
    max_memory: Union[int, str, None] = None,
    force: bool = False,
) -> List[dict[str, Any]]:
    """The octal census (``nimlab census octal``): one line per code w.d1…dD (base 8 or
    16, whole parts 0/4), solved with a proven period below ``up_to`` (default 2**16) or
    unsolved with its sparse-space figures, in census order. ``done``: lines of an
    earlier run with the same settings, skipped and kept (resuming). Ctrl-C stops it."""

def merge_census(
    lines: Sequence[dict[str, Any]], *, max_memory: Union[int, str, None] = None
) -> dict[str, Any]:
    """Join census lines (shards, or the CLI's JSON-lines files read with ``json``) into
    ``nimlab census merge``'s document: count, games (each once, by census index), solved."""
