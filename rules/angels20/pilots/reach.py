"""Move tables and reachable positions for the computer pilots.

Everything here is relative to an aircraft at axial (0, 0): where a step
sequence takes it (:func:`simulate`, the engine's own walk of a move,
``maneuvers.walk``), the legal plans of one speed grouped by
their outcome (:func:`groups`), the distinct end positions of normal moves
(:func:`reach`), and how many of those ends give a shot at a fixed target
(:func:`shoot_bins`, :func:`dodge_bins`). The tables are process-wide
caches of position-independent answers; they never change a decision.
"""

from __future__ import annotations

import gc
import marshal
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ..actions import (
    ALL_MANEUVERS,
    STRAIGHT,
    TURN_LEFT,
    TURN_RIGHT,
    Action,
    Maneuver,
)
from ..hexmap import ARC_TABLE, ASPECT_TABLE, DIRECTIONS, MAX_TABLE_RANGE
from ..maneuvers import walk
from ..plans import plan_steps

_MAXR = MAX_TABLE_RANGE
_T = TypeVar("_T")
_SPAN = 2 * _MAXR + 1

Hex = tuple[int, int]
End = tuple[int, int, int, int]  # (dq, dr, facing, altitude)
Bins = tuple[tuple[tuple[int, int, int], ...], int]  # ((range, target number, count), ...), n
ReachSet = tuple[tuple[int, int, int], ...]


def _rot_matrix(times: int) -> tuple[int, int, int, int]:
    a, b, c, d = 1, 0, 0, 1
    for _ in range(times % 6):
        # (q, r) -> (q + r, -q)
        a, b, c, d = a + c, b + d, -a, -b
    return a, b, c, d


ROT = tuple(_rot_matrix(k) for k in range(6))


def okey(dq: int, dr: int) -> int:
    """Key of an axial offset in the hex map's geometry tables."""
    return (dq + _MAXR) * _SPAN + (dr + _MAXR)


def dist(dq: int, dr: int) -> int:
    """Hex distance of an axial offset."""
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# ---------------------------------------------------------------- paths

_INTERNED: dict[Any, Any] = {}


def intern(x: Any) -> Any:
    """Share equal small tuples / frozensets between the move tables."""
    got = _INTERNED.get(x)
    if got is None:
        if len(_INTERNED) > 200_000:
            _INTERNED.clear()
        got = _INTERNED[x] = x
    return got


_CELL_R = 16  # each step enters at most one hex: moves of up to 16 steps stay on the grid


class _Grid:
    """The relative hexes within ``radius`` of (0, 0) as a hex grid for
    ``maneuvers.walk``: a hex is an index, ``cells[index]`` its interned (q, r)."""

    __slots__ = ("cells", "neighbour", "origin")

    def __init__(self, radius: int) -> None:
        span = 2 * radius + 1
        axis = range(-radius, radius + 1)
        # hex (q, r) is index (q + radius) * span + (r + radius); a path is built from shared cells
        self.cells: tuple[Hex, ...] = tuple(intern((q, r)) for q in axis for r in axis)
        neighbour = [-1] * (6 * len(self.cells))  # -1: off the grid
        for d, (dq, dr) in enumerate(DIRECTIONS):
            for q in range(max(-radius, -radius - dq), min(radius, radius - dq) + 1):
                for r in range(max(-radius, -radius - dr), min(radius, radius - dr) + 1):
                    h = (q + radius) * span + (r + radius)
                    neighbour[h * 6 + d] = h + dq * span + dr
        self.neighbour = tuple(neighbour)
        self.origin = radius * span + radius


_GRIDS: dict[int, _Grid] = {}
_GRID: _Grid | None = None  # the shared grid of moves up to _CELL_R steps, once built


def _grid(steps: int) -> _Grid:
    """A grid that a move of ``steps`` steps cannot leave (built on first use, not at import)."""
    global _GRID
    radius = max(steps, _CELL_R)
    got = _GRIDS.get(radius)
    if got is None:
        got = _GRIDS[radius] = _Grid(radius)
        if radius == _CELL_R:
            _GRID = got
    return got


def simulate(
    steps: tuple[Action, ...], facing: int, alt: int, ok: bool
) -> tuple[tuple[Hex, ...], int, int]:
    """Relative path of a step sequence from (0, 0): (entered hexes, facing, altitude).

    The engine's walk of a move (``maneuvers.walk``, which move choices on
    the map share), on a grid of relative hexes the move cannot leave.
    """
    g = _GRID
    if g is None or len(steps) > _CELL_R:
        g = _grid(len(steps))
    entered, _, f, alt = walk(g.neighbour, g.origin, facing, alt, steps, ok, g.cells)
    return intern(tuple(entered)), f, alt


def traced(
    steps: tuple[Action, ...], facing: int, alt: int, ok: bool
) -> tuple[tuple[Hex, ...], int, int, tuple[int, ...]]:
    """:func:`simulate` and the altitude after each hex it enters (aligned with the path)."""
    g = _GRID
    if g is None or len(steps) > _CELL_R:
        g = _grid(len(steps))
    before: list[tuple[int, int, int]] = []
    entered, at, f, end_alt = walk(g.neighbour, g.origin, facing, alt, steps, ok, g.cells, before)
    after = before[1:]
    after.append((at, f, end_alt))
    # a step enters a hex unless it remains in its own (a successful Scissors)
    alts = tuple([a for (h0, _, _), (h1, _, a) in zip(before, after, strict=True) if h1 != h0])
    return intern(tuple(entered)), f, end_alt, alts


# ---------------------------------------------------------------- move tables


class Group:
    """Plans with the same relative outcome(s); members differ only in their path."""

    __slots__ = ("dm", "dm_first", "ends", "idx", "members", "lo", "hi", "first")

    def __init__(
        self,
        dm: str | None,
        dm_first: bool,
        ends: tuple[End, ...],
        lo: int,
        hi: int,
        idx: tuple[int, ...] = (),
        members: list[tuple[Any, ...]] | None = None,
        first: tuple[Action, ...] | None = None,
    ) -> None:
        self.dm = dm  # maneuver kind (None: no difficult maneuver)
        self.dm_first = dm_first  # the maneuver is the first step
        # ((dq, dr, facing, alt) success, (...) failure) or (end,), at facing 0
        self.ends = ends
        self.idx = idx  # indices of the ends in the table's end list
        # (steps, paths, hexes visited, altitude after each hex entered, per path),
        # paths and hexes at facing 0 (the same for every facing of a table);
        # empty while a shipped table's members are not read yet (see groups)
        self.members: list[tuple[Any, ...]] = [] if members is None else members
        self.lo = lo
        self.hi = hi
        # the steps of the first member: the group's plan where no member path
        # needs a look (no map edge, flak or balloon within reach)
        if first is None:
            first = members[0][0] if members else ()
        self.first: tuple[Action, ...] = first


Table = tuple[tuple[End, ...], list[Group]]

_MOVE_TABLES: dict[tuple[Any, ...], list[Table | None]] = {}
_TABLES_LOCK = threading.Lock()  # held by groups(): the move tables and _UNREAD change together
_MAX_TABLES = 600  # (key, facing) tables kept, ~85 kB each
_TABLES_BUILT = 0
_MAX_MEMBERS = 6
STEP_SEQS: dict[tuple[Any, ...], tuple[tuple[Action, ...], ...]] = {}


def table_seqs(key: tuple[Any, ...]) -> tuple[tuple[Action, ...], ...]:
    """The step sequences a move table groups (from the shipped file if it holds them)."""
    blob = _shipped("seqs").get(key)
    return built_seqs(key) if blob is None else decode_seqs(blob)


def built_seqs(key: tuple[Any, ...]) -> tuple[tuple[Action, ...], ...]:
    """The step sequences a move table groups: the engine's plans of ``key``.

    ``key`` is (speed, high speed, altitude, required maneuver, bomber, no
    turn): the engine's relative step sequences of a whole move
    (``plans.plan_steps``, the steps of ``legal_move_plans`` without
    clouds), in its order, less those with two difficult maneuvers (an
    ability's second one, which the odds model does not use: it rolls one
    check). Straight from the engine's table, without building its plans.
    """
    speed, high, alt, required, bomber, no_turn = key
    return tuple(
        steps
        for steps, _lo, _hi in plan_steps(speed, high, alt, required, bomber, no_turn)
        # (type(), not isinstance(): Action is an ABC, whose isinstance is slow)
        if sum(type(x) is Maneuver for x in steps) <= 1
    )


def _first_maneuver(steps: tuple[Action, ...]) -> tuple[str | None, bool]:
    """(kind, is the first step) of the sequence's difficult maneuver, if any."""
    for n, s in enumerate(steps):
        if type(s) is Maneuver:
            return s.kind, n == 0
    return None, False


def _outcomes(
    steps: tuple[Action, ...], dm: str | None, facing: int, alt: int
) -> tuple[tuple[End, ...], Any, tuple[tuple[int, ...], ...]]:
    """The end(s), path(s) and altitudes after each hex entered (per path) of a
    sequence: one, or success and failure of its maneuver."""
    if dm is None:
        path, f, a, alts = traced(steps, facing, alt, True)
        return ((path[-1] if path else (0, 0)) + (f, a),), (path,), (alts,)
    ps, fs, a_s, alts_s = traced(steps, facing, alt, True)
    pf, ff, a_f, alts_f = traced(steps, facing, alt, False)
    ends = (
        (ps[-1] if ps else (0, 0)) + (fs, a_s),
        (pf[-1] if pf else (0, 0)) + (ff, a_f),
    )
    return ends, intern((ps, pf)), (alts_s, alts_f)


def _index_ends(out: list[Group]) -> tuple[End, ...]:
    """The distinct ends of all groups; each group's ``idx`` points into them."""
    end_list: list[End] = []
    where: dict[End, int] = {}
    for grp in out:
        ix = []
        for e in grp.ends:
            k = where.get(e)
            if k is None:
                k = where[e] = len(end_list)
                end_list.append(e)
            ix.append(k)
        grp.idx = tuple(ix)
    return tuple(end_list)


# (steps, facing) -> (maneuver kind, is it the first step, the end(s) at altitude 0,
# the path(s), the hexes visited, the altitude after each hex entered from
# altitude 0, per path): a sequence's outcome is the same at every altitude
# but for the altitude itself (no maneuver's climb depends on it), so the
# tables of one speed at other altitudes reuse it
_SEQ_OUTCOMES: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _seq_outcome(steps: tuple[Action, ...], facing: int) -> tuple[Any, ...]:
    k = (steps, facing)
    got = _SEQ_OUTCOMES.get(k)
    if got is None:
        if len(_SEQ_OUTCOMES) > 100_000:
            _SEQ_OUTCOMES.clear()
        dm, dm_first = _first_maneuver(steps)
        ends, paths, alts = _outcomes(steps, dm, facing, 0)
        hexes = intern(frozenset(h for pth in paths for h in pth))
        got = _SEQ_OUTCOMES[k] = (dm, dm_first, ends, paths, hexes, alts)
    return got


def _build_groups(seqs: tuple[tuple[Action, ...], ...], facing: int, alt: int) -> list[Group]:
    by: dict[tuple[Any, ...], Group] = {}
    out: list[Group] = []
    for steps in seqs:
        dm, dm_first, ends0, paths, hexes, alts0 = _seq_outcome(steps, facing)
        # a maneuver's climb does not depend on the altitude it starts from
        ends = tuple((q, r, f, alt + a) for q, r, f, a in ends0)
        gk = (dm, dm_first, ends)
        grp = by.get(gk)
        if grp is None:
            alts = [e[3] for e in ends]
            grp = by[gk] = Group(dm, dm_first, ends, min(alts), max(alts), first=steps)
            out.append(grp)
        # keep a few members with different paths: enough to dodge a map edge
        if len(grp.members) >= _MAX_MEMBERS:
            continue
        if all(m[2] != hexes for m in grp.members):
            alts_ = intern(tuple(intern(tuple(alt + a for a in pa)) for pa in alts0))
            grp.members.append((steps, paths, hexes, alts_))
    return out


def groups(
    seqs: tuple[tuple[Action, ...], ...],
    key: tuple[Any, ...],
    facing: int,
    alt: int,
    members: bool = True,
) -> Table:
    """(distinct ends, groups) of the step sequences ``seqs`` from ``facing`` at ``alt``.

    ``members=False``: the caller needs only each group's ``first`` steps, so
    a shipped table's member paths may stay unread until a call wants them.

    Battles flown in threads of one process share the tables: one thread at a
    time looks them up, reads or builds them (a table read without its members
    by one thread must not be handed to another that wants them).
    """
    with _TABLES_LOCK:
        return _groups(seqs, key, facing, alt, members)


def _groups(
    seqs: tuple[tuple[Action, ...], ...], key: tuple[Any, ...], facing: int, alt: int, members: bool
) -> Table:
    global _TABLES_BUILT
    if members and _UNREAD:
        read_members(key)
    row = _MOVE_TABLES.get(key)
    if row is None:
        if _TABLES_BUILT >= _MAX_TABLES:
            _MOVE_TABLES.clear()  # bound the memory of a long-running process (~50 MB)
            _UNREAD.clear()
            _TABLES_BUILT = 0
        row = _MOVE_TABLES[key] = [None] * 6
    g = row[facing]
    if g is not None:
        return g
    base = row[0]
    if base is None:
        base = shipped_table(key, seqs, members)
        if base is None:
            out = _build_groups(seqs, 0, alt)
            base = (_index_ends(out), out)
        row[0] = base
        _TABLES_BUILT += 1
    if facing:
        # the same moves from another facing: the facing-0 groups, their ends
        # turned (every maneuver's outcome turns with the aircraft, maneuvers.py);
        # the members' paths stay in the facing-0 frame (see to_facing_0)
        a, b, c, d = ROT[(6 - facing) % 6]  # direction k -> k + facing
        ends = tuple(
            [(a * q + b * r, c * q + d * r, (f + facing) % 6, alt_) for q, r, f, alt_ in base[0]]
        )
        table = row[facing] = (ends, base[1])
        return table
    return base


# ---------------------------------------------------------------- shipped tables

# The facing-0 tables of the catalog's speeds, built ahead by
# ``python -m rules.angels20.pilots.build_tables`` (issue 17: a fresh
# process's first battle would otherwise spend most of its extra time
# building them). Read on first use, never at import; a key the file lacks,
# or no file, is built as before. tests/rules/angels20/pilots/
# test_shipped_tables.py checks the file equals the tables built from nothing.
SHIPPED_FILE = os.path.join(os.path.dirname(__file__), "move_tables.marshal")
SHIPPED_FORMAT = 4
# "tables": move table key -> compressed table; "seqs": move table key ->
# its step sequences (table_seqs); "bins": ("shoot" or "dodge", reach key,
# bomber) -> compressed bins table (see shoot_bins, dodge_bins); "steps":
# the str of each step code (STEP_CODES), the file unused if they differ
_SHIPPED: dict[str, dict[tuple[Any, ...], bytes]] | None = None


def _shipped(part: str) -> dict[tuple[Any, ...], bytes]:
    """One part of :data:`SHIPPED_FILE` (empty if the file is absent or unreadable)."""
    global _SHIPPED
    if _SHIPPED is None:
        try:
            with open(SHIPPED_FILE, "rb") as fh:
                raw = fh.read()
            data = _no_gc(lambda: marshal.loads(raw))
            ok = (
                type(data) is dict
                and data.get("format") == SHIPPED_FORMAT
                and data.get("steps") == tuple(str(a) for a in STEP_CODES)
            )
            _SHIPPED = {k: data[k] for k in ("tables", "seqs", "bins")} if ok else {}
        except (OSError, EOFError, ValueError, TypeError, KeyError):
            _SHIPPED = {}
    return _SHIPPED.get(part, {})


def _shipped_blobs() -> dict[tuple[Any, ...], bytes]:
    """Move table key -> compressed table, from the shipped file."""
    return _shipped("tables")


def _compress(raw: bytes, level: int) -> bytes:
    import zlib  # on first use: importing this module stays as cheap as before

    return zlib.compress(raw, level)


def _decompress(blob: bytes) -> bytes:
    import zlib

    return zlib.decompress(blob)


# the steps of a move, by their code in the shipped file
STEP_CODES: tuple[Action, ...] = (STRAIGHT, TURN_LEFT, TURN_RIGHT, *ALL_MANEUVERS)


def encode_seqs(seqs: tuple[tuple[Action, ...], ...]) -> bytes:
    """Step sequences in the shipped file's form: one byte string of step codes each."""
    code = {a: n for n, a in enumerate(STEP_CODES)}
    return _compress(marshal.dumps(tuple(bytes(code[a] for a in steps) for steps in seqs)), 9)


# a step sequence's code in the shipped file -> the sequence (shared by the
# tables of one speed at each altitude)
_SEQ_OF_CODE: dict[bytes, tuple[Action, ...]] = {}


def decode_seqs(blob: bytes) -> tuple[tuple[Action, ...], ...]:
    """The step sequences :func:`encode_seqs` wrote (the engine's own step instances)."""
    step = STEP_CODES.__getitem__
    known = _SEQ_OF_CODE

    def decode() -> tuple[tuple[Action, ...], ...]:
        if len(known) > 100_000:
            known.clear()
        out = []
        for c in marshal.loads(_decompress(blob)):
            got = known.get(c)
            if got is None:
                got = known[c] = tuple(map(step, c))
            out.append(got)
        return tuple(out)

    return _no_gc(decode)


def encode_table(seqs: tuple[tuple[Action, ...], ...], table: Table) -> bytes:
    """A facing-0 table in the shipped file's form: members name their steps by index in ``seqs``.

    Two parts, read separately (:func:`decode_table`): the groups with their
    first member's steps, and the members' paths.
    """
    ends, grps = table
    pos = {steps: n for n, steps in enumerate(seqs)}
    head = (
        len(seqs),
        ends,
        tuple(
            (
                g.dm,
                g.dm_first,
                tuple(ends[k] for k in g.idx),  # shared with ``ends`` in the file
                g.lo,
                g.hi,
                g.idx,
                pos[g.members[0][0]],
            )
            for g in grps
        ),
    )
    members = tuple(tuple((pos[m[0]], *m[1:]) for m in g.members) for g in grps)
    return _compress(marshal.dumps((marshal.dumps(head), marshal.dumps(members))), 9)


def _no_gc(fn: Callable[[], _T]) -> _T:
    """``fn()`` with the cyclic collector paused: decoding a shipped table makes
    tens of thousands of small tuples and no cycle, collections meanwhile would
    only scan them again and again."""
    was = gc.isenabled()
    gc.disable()
    try:
        return fn()
    finally:
        if was:
            gc.enable()


# move table key -> (the members part of its shipped table, its step sequences,
# its groups): shipped tables read without their members (groups(members=False))
_UNREAD: dict[tuple[Any, ...], tuple[bytes, tuple[tuple[Action, ...], ...], list[Group]]] = {}


def decode_head(blob: bytes, seqs: tuple[tuple[Action, ...], ...]) -> tuple[Table, bytes] | None:
    """(the table :func:`encode_table` wrote, its groups without members yet, the
    members part for :func:`fill_members`), or None if it was made for other sequences."""

    def decode() -> tuple[Table, bytes] | None:
        head, rest = marshal.loads(_decompress(blob))
        n, ends, rows = marshal.loads(head)
        if n != len(seqs):
            return None
        grps = [
            Group(dm, dm_first, e, lo, hi, idx, None, seqs[k])
            for dm, dm_first, e, lo, hi, idx, k in rows
        ]
        return (ends, grps), rest

    return _no_gc(decode)


def decode_table(blob: bytes, seqs: tuple[tuple[Action, ...], ...]) -> Table | None:
    """The table :func:`encode_table` wrote, or None if it was made for other sequences."""
    got = decode_head(blob, seqs)
    if got is None:
        return None
    table, rest = got
    fill_members(table[1], rest, seqs)
    return table


def fill_members(grps: list[Group], rest: bytes, seqs: tuple[tuple[Action, ...], ...]) -> None:
    """Give a shipped table's groups their members from the members part of its blob."""

    def fill() -> None:
        for g, ms in zip(grps, marshal.loads(rest), strict=True):
            g.members = [(seqs[k], p, h, a) for k, p, h, a in ms]

    _no_gc(fill)


def read_members(key: tuple[Any, ...]) -> None:
    """Read the members of the table of ``key`` if it was read without them."""
    got = _UNREAD.pop(key, None)
    if got is not None:
        fill_members(got[2], got[0], got[1])


def shipped_table(
    key: tuple[Any, ...], seqs: tuple[tuple[Action, ...], ...], members: bool = True
) -> Table | None:
    """The facing-0 table of ``key`` from the shipped file, if it holds one.

    ``members=False``: its groups' members are read later, by :func:`read_members`.
    """
    blob = _shipped_blobs().get(key)
    if blob is None:
        return None
    if members:
        return decode_table(blob, seqs)
    got = decode_head(blob, seqs)
    if got is None:
        return None
    table, rest = got
    _UNREAD[key] = (rest, seqs, table[1])
    return table


def to_facing_0(facing: int, cell: Hex) -> Hex:
    """A cell relative to an aircraft facing ``facing``, in the frame of its facing-0 paths."""
    a, b, c, d = ROT[facing]  # direction k -> k - facing
    return (a * cell[0] + b * cell[1], c * cell[0] + d * cell[1])


def from_facing_0(facing: int, cell: Hex) -> Hex:
    """The inverse of :func:`to_facing_0`."""
    a, b, c, d = ROT[(6 - facing) % 6]
    return (a * cell[0] + b * cell[1], c * cell[0] + d * cell[1])


# ---------------------------------------------------------------- reach sets

_REACH: dict[tuple[Any, ...], ReachSet] = {}


def reach(speeds: tuple[int, ...], highs: tuple[int, ...], can_turn: bool) -> ReachSet:
    """Distinct relative end positions (q, r, facing) from (0, 0) facing 0 with normal moves."""
    key = (speeds, highs, can_turn)
    got = _REACH.get(key)
    if got is not None:
        return got
    ends: set[tuple[int, int, int]] = set()

    def rec(n: int, left: int, q: int, r: int, f: int, high: bool, last_turn: int) -> None:
        if left == 0:
            ends.add((q, r, f))
            return
        dq, dr = DIRECTIONS[f]
        nq, nr = q + dq, r + dr
        rec(n + 1, left - 1, nq, nr, f, high, last_turn)
        if can_turn and not (high and last_turn == n):
            rec(n + 1, left - 1, nq, nr, (f - 1) % 6, high, n + 1)
            rec(n + 1, left - 1, nq, nr, (f + 1) % 6, high, n + 1)

    for s in speeds:
        rec(0, s, 0, 0, 0, False, -9)
    for s in highs:
        rec(0, s, 0, 0, 0, True, -9)
    got = _REACH[key] = tuple(sorted(ends))
    return got


# relative hexes at range 1-3: (dq, dr, range, key in the geometry tables)
_NEAR = tuple(
    (dq, dr, dist(dq, dr), okey(dq, dr))
    for dq in range(-3, 4)
    for dr in range(-3, 4)
    if 1 <= dist(dq, dr) <= 3
)
# one table per (reach set, bomber): every relative target position -> its bins
_SHOOT: dict[tuple[Any, ...], dict[tuple[int, int, int], Bins]] = {}
_DODGE: dict[tuple[Any, ...], dict[tuple[int, int, int], Bins]] = {}


def _binned(bins: dict[tuple[int, int], int], n: int) -> Bins:
    return tuple((d, tn, c) for (d, tn), c in sorted(bins.items())), n


def _tabled(counts: dict[tuple[int, int, int], dict[tuple[int, int], int]], n: int) -> dict:
    return {k: intern(_binned(v, n)) for k, v in counts.items()}


def _shoot_table(reach_set: ReachSet, bomber: bool) -> dict[tuple[int, int, int], Bins]:
    """Bins of :func:`shoot_bins` for every target position at once, one pass over the reach."""
    counts: dict[tuple[int, int, int], dict[tuple[int, int], int]] = {}
    for aq, ar, af in reach_set:
        for dq, dr, d, k_to in _NEAR:
            if not (bomber or ARC_TABLE[k_to][af]):
                continue
            aspects = ASPECT_TABLE[okey(-dq, -dr)]
            tq, tr = aq + dq, ar + dr
            for tf in range(6):
                c = counts.get((tq, tr, tf))
                if c is None:
                    c = counts[(tq, tr, tf)] = {}
                k = (d, aspects[tf][0])
                c[k] = c.get(k, 0) + 1
    return _tabled(counts, len(reach_set))


def _dodge_table(reach_set: ReachSet, bomber: bool) -> dict[tuple[int, int, int], Bins]:
    """Bins of :func:`dodge_bins` for every attacker position at once."""
    counts: dict[tuple[int, int, int], dict[tuple[int, int], int]] = {}
    for aq, ar, af in reach_set:
        for dq, dr, d, k_to in _NEAR:
            k = (d, ASPECT_TABLE[okey(-dq, -dr)][af][0])
            mq, mr = aq - dq, ar - dr
            arcs = ARC_TABLE[k_to]
            for mf in range(6):
                if not (bomber or arcs[mf]):
                    continue
                c = counts.get((mq, mr, mf))
                if c is None:
                    c = counts[(mq, mr, mf)] = {}
                c[k] = c.get(k, 0) + 1
    return _tabled(counts, len(reach_set))


_EMPTY: dict[int, Bins] = {}


def _empty(n: int) -> Bins:
    got = _EMPTY.get(n)
    if got is None:
        got = _EMPTY[n] = ((), n)
    return got


def encode_bins(table: dict[tuple[int, int, int], Bins]) -> bytes:
    """A table of :func:`_shoot_table` or :func:`_dodge_table` in the shipped file's form."""
    return _compress(marshal.dumps(table), 9)


def shipped_bins(kind: str, rkey: Any, bomber: bool) -> dict[tuple[int, int, int], Bins] | None:
    """The ``kind`` ("shoot" or "dodge") bins table of a reach key from the shipped file, if any."""
    blob = _shipped("bins").get((kind, rkey, bomber))
    if blob is None:
        return None
    table: dict[tuple[int, int, int], Bins] = _no_gc(lambda: marshal.loads(_decompress(blob)))
    return table


def shoot_table(reach_set: ReachSet, rkey: Any, bomber: bool) -> dict[tuple[int, int, int], Bins]:
    """Every target position (tq, tr, tf) with a shot from the reach -> its :func:`shoot_bins`.

    Positions with no shot are absent (their bins are empty). The table and
    its bins live as long as the process (never cleared), so a bins tuple's
    ``id`` names it (``scoring.bins_value``).
    """
    return _bins_table(_SHOOT, "shoot", _shoot_table, reach_set, rkey, bomber)


def dodge_table(
    reach_set: ReachSet, rkey: Any, my_bomber: bool
) -> dict[tuple[int, int, int], Bins]:
    """Every attacker position (mq, mr, mf) -> its :func:`dodge_bins` (as :func:`shoot_table`)."""
    return _bins_table(_DODGE, "dodge", _dodge_table, reach_set, rkey, my_bomber)


def _bins_table(
    memo: dict[tuple[Any, ...], dict[tuple[int, int, int], Bins]],
    kind: str,
    build: Callable[[ReachSet, bool], dict[tuple[int, int, int], Bins]],
    reach_set: ReachSet,
    rkey: Any,
    bomber: bool,
) -> dict[tuple[int, int, int], Bins]:
    """A process-wide bins table: kept, else shipped, else built from the reach."""
    table = memo.get((rkey, bomber))
    if table is None:
        table = shipped_bins(kind, rkey, bomber)
        if table is None:
            table = build(reach_set, bomber)
        memo[(rkey, bomber)] = table
    return table


def shoot_bins(reach_set: ReachSet, rkey: Any, bomber: bool, tq: int, tr: int, tf: int) -> Bins:
    """Attacker at origin facing 0 moves (reach); target stays at (tq, tr) facing tf.

    Returns ((range, target number, count), ...), number of reach positions.
    """
    got = shoot_table(reach_set, rkey, bomber).get((tq, tr, tf))
    return _empty(len(reach_set)) if got is None else got


def dodge_bins(reach_set: ReachSet, rkey: Any, my_bomber: bool, mq: int, mr: int, mf: int) -> Bins:
    """Target at origin facing 0 moves (reach); the attacker stays at (mq, mr) facing mf."""
    got = dodge_table(reach_set, rkey, my_bomber).get((mq, mr, mf))
    return _empty(len(reach_set)) if got is None else got
