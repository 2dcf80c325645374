"""Seating a round of a tournament: who sits at which table, in which seat (pure: no I/O, no
randomness of its own; round 1's order comes from the tournament's chance).

**Table sizes** (``table_sizes``): the fewest tables of at most ``largest`` players whose sizes
the game allows, as even as possible, the bigger ones first (13 players at 4: 4, 3, 3, 3); when
no split seats everybody (an odd count at two-player tables), the fewest byes that make one.

**Round 1** (``first_round``): the players in the order the tournament's chance shuffled them,
dealt into the tables in turn; the last ones of that order take the byes.

**Later rounds** (``later_round``): the players in standing order; the byes go to those who
have had the fewest, the lowest in the standings first. The others are seated by minimising,
in this order (lexicographically): *repeats* (each pair at one table counts the times the two
have met before), *first seats* (each table counts how often the one of its players who has
played first least often has played first) and *spread* (the differences in standing within
each table, summed over its pairs).

* Tables of three or more: a local search over swaps of two players of different tables,
  started from the tables in standing order and, when that ends with repeats, also from the
  players dealt in turn out of their previous round's tables (the better end is kept), taking
  any swap that lowers the cost until none does.
* Two-player tables (a Swiss round): a maximum-weight perfect matching (networkx's
  ``max_weight_matching``, Edmonds' blossom algorithm), each pair weighted so that fewer
  repeats always outweigh first seats, which outweigh standing. Up to ``EVERY_PAIR`` players
  it weighs every pair: the fewest repeats any pairing could have, then the fewest first
  seats, then the closest standings. Beyond, each player's candidates are the ``BAND``
  nearest in the standings (the blossom algorithm is cubic), and the swap search follows.

Then each table's seats are ordered (``order_seats``, exactly, over every order): first seat
to a player of the table who has played first least often, then each seat to whoever has sat
there least.

**What is guaranteed** (``tests/tournaments/test_seating_properties.py`` checks each):

1. Every active player is seated exactly once a round, or has a bye; tables have the sizes above.
2. A player has a second bye only once every player seated that round has had one (byes go to
   the fewest first).
3. No swap of two players of different tables lowers the cost (repeats, first seats, spread):
   at two-player tables of up to ``EVERY_PAIR`` players because the matching is optimal over
   all pairings, beyond it because the swap search ends there.
4. From 3 (``repeat_bound``): a player sits with at most ``⌊(S − 2 + k)·D / (N − k + S − 2)⌋``
   earlier meetings at its table of k, where S is the round's largest table, N the players
   seated and D the most earlier meetings any of them has had (a player met twice counted
   twice). E.g. 60 players at tables of 4 after 5 rounds: D ≤ 15, at most 1.
5. Round 2: nobody meets a round-1 opponent again when there are at least as many tables as
   the largest table of round 1 and the sizes are an even split (13 players at 4: four tables
   against round 1's table of 4): dealt in turn, no two players of a round-1 table meet, and
   the search never raises the repeats it starts from.
6. The first seat of each table goes to one of its players who has played first least often.
"""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]  # no stubs installed

SEAT_WEIGHT = 1000  # a first seat's count outweighs every other seat's (order_seats)


# table sizes ------------------------------------------------------------------------------
def table_sizes(n: int, allowed: list[int], largest: int) -> tuple[list[int], int]:
    """``(sizes, byes)``: the tables for ``n`` players (bigger first) and how many sit out."""
    ok = sorted({s for s in allowed if 2 <= s <= largest})
    if not ok:
        raise ValueError("no table size is allowed")
    for byes in range(n + 1):
        sizes = _split(n - byes, ok)
        if sizes is not None:
            return sizes, byes
    return [], n


def _split(m: int, ok: list[int]) -> list[int] | None:
    if m < ok[0]:
        return None
    for tables in range(-(-m // ok[-1]), m // ok[0] + 1):
        base, extra = divmod(m, tables)
        if base in ok and (extra == 0 or base + 1 in ok):
            return [base + 1] * extra + [base] * (tables - extra)
        best = _most_even(m, tables, ok)
        if best is not None:
            return best
    return None


def _most_even(m: int, tables: int, ok: list[int]) -> list[int] | None:
    """``tables`` sizes from ``ok`` summing to ``m``, the largest minus the smallest least
    (a game whose seat counts have gaps: Loot in pairs seats 4, 6 or 8)."""
    best: list[int] | None = None
    for lo in ok:
        for hi in ok:
            if hi < lo or (best is not None and hi - lo >= best[0] - best[-1]):
                continue
            # sizes within [lo, hi]: start all at lo, raise the first ones while the sum is short
            sizes = [lo] * tables
            short = m - lo * tables
            if short < 0:
                continue
            filled = _fill(sizes, short, [s for s in ok if lo <= s <= hi])
            if filled is not None and filled[-1] == lo and filled[0] == hi:
                best = filled
    return best


def _fill(sizes: list[int], short: int, ok: list[int]) -> list[int] | None:
    out = list(sizes)
    i = 0
    while short > 0 and i < len(out):
        up = [s for s in ok if s > out[i] and s - out[i] <= short]
        if not up:
            i += 1
            continue
        short -= max(up) - out[i]
        out[i] = max(up)
        i += 1
    return sorted(out, reverse=True) if short == 0 else None


# what the earlier rounds left ---------------------------------------------------------------
class Past:
    """What the rounds so far say of each player: how often each pair met, how often each
    sat in each seat (0: first), how many byes, and which table each had last."""

    __slots__ = ("met", "seats", "byes", "last_table")

    def __init__(self) -> None:
        self.met: dict[str, dict[str, int]] = {}
        self.seats: dict[str, list[int]] = {}
        self.byes: dict[str, int] = {}
        self.last_table: dict[str, int] = {}

    @classmethod
    def of(cls, rounds: list[dict]) -> "Past":
        """From the rounds seated so far (``{"tables": [{"players": [...]}, ...], "byes": [...]}``)."""
        past = cls()
        for rnd in rounds:
            past.last_table = {}
            for t, table in enumerate(rnd["tables"]):
                players = table["players"]
                for i, p in enumerate(players):
                    seats = past.seats.setdefault(p, [0] * 6)
                    seats[i] += 1
                    past.last_table[p] = t
                    met = past.met.setdefault(p, {})
                    for q in players:
                        if q != p:
                            met[q] = met.get(q, 0) + 1
            for p in rnd.get("byes", ()):
                past.byes[p] = past.byes.get(p, 0) + 1
        return past

    def times_met(self, p: str, q: str) -> int:
        return self.met.get(p, {}).get(q, 0)

    def firsts(self, p: str) -> int:
        return self.seats.get(p, (0,))[0]


# round 1 --------------------------------------------------------------------------------------
def first_round(shuffled: list[str], sizes: list[int], byes: int) -> tuple[list[list[str]], list[str]]:
    """``(tables, byes)``: the shuffled players dealt into tables of ``sizes`` in turn, each
    table's seats in that order; the last ``byes`` of them sit out."""
    seated = shuffled[:len(shuffled) - byes]
    tables, at = [], 0
    for size in sizes:
        tables.append(seated[at:at + size])
        at += size
    return tables, shuffled[len(seated):]


# later rounds ---------------------------------------------------------------------------------
def choose_byes(ranked: list[str], byes: int, past: Past) -> list[str]:
    """Who sits out: the fewest byes so far first, then the lowest in the standings."""
    if not byes:
        return []
    order = sorted(range(len(ranked)), key=lambda i: (past.byes.get(ranked[i], 0), -i))
    return [ranked[i] for i in sorted(order[:byes])]


def later_round(ranked: list[str], sizes: list[int], byes: int, past: Past) -> tuple[list[list[str]], list[str]]:
    """``(tables, byes)`` for a round after the first: ``ranked`` are the players to seat, in
    standing order (the leader first). See the module's text for what is minimised."""
    out = choose_byes(ranked, byes, past)
    players = [p for p in ranked if p not in set(out)]
    if not players:
        return [], out
    if max(sizes) == 2:
        groups = _matched(players, past)
    else:
        groups = _searched(players, sizes, past)
    return [order_seats(g, past) for g in groups], out


def _matrices(players: list[str], past: Past) -> tuple[list[list[int]], list[int]]:
    met = [[past.times_met(p, q) for q in players] for p in players]
    firsts = [past.firsts(p) for p in players]
    return met, firsts


EVERY_PAIR = 64  # up to this many players a Swiss round weighs every pair; beyond, a band (BAND)
BAND = 16  # each player's candidates beyond EVERY_PAIR: the BAND nearest in the standings either side


def _matched(players: list[str], past: Past) -> list[list[str]]:
    """Two-player tables: a maximum-weight perfect matching (see the module's text), then the
    swap search (which keeps guarantee 3 where the band left some pairing out)."""
    n = len(players)
    met, firsts = _matrices(players, past)
    first_w = n * n + 1  # more than any sum of standing differences over a pairing
    repeat_w = first_w * (max(firsts, default=0) + 1) * n + 1  # more than any sum of first seats
    worst = repeat_w * (max(max(row) for row in met) + 1) + first_w * (max(firsts, default=0) + 1) + n
    reach = n if n <= EVERY_PAIR else BAND
    graph = nx.Graph()
    for i in range(n):
        for j in range(i + 1, min(n, i + reach + 1)):
            cost = repeat_w * met[i][j] + first_w * min(firsts[i], firsts[j]) + (j - i)
            graph.add_edge(i, j, weight=worst - cost)
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    tables = sorted(sorted(pair) for pair in pairs)
    if reach < n:
        tables = _swap_search(tables, met, firsts)[1]
    return [[players[i] for i in sorted(t)] for t in tables]


def _searched(players: list[str], sizes: list[int], past: Past) -> list[list[str]]:
    """Tables of three or more: the swap search from the tables in standing order and, if
    repeats are left, from the players dealt out of their last tables; the better end kept."""
    met, firsts = _matrices(players, past)
    by_standing, at = [], 0
    for size in sizes:
        by_standing.append(list(range(at, at + size)))
        at += size
    ends = [_swap_search(by_standing, met, firsts)]
    if ends[0][0][0]:  # repeats left: the search again from the players dealt out of their last tables
        ends.append(_swap_search(_dealt(players, sizes, past), met, firsts))
    best = min(ends, key=lambda e: e[0])[1]
    return [[players[i] for i in sorted(t)] for t in best]


def _dealt(players: list[str], sizes: list[int], past: Past) -> list[list[int]]:
    """The players grouped by their last table (in standing order within and between the
    groups; those without one last), dealt into the tables in turn, skipping full ones."""
    n = len(players)
    order = sorted(range(n), key=lambda i: (past.last_table.get(players[i], n), i))
    tables: list[list[int]] = [[] for _ in sizes]
    t = 0
    for i in order:
        while len(tables[t]) >= sizes[t]:
            t = (t + 1) % len(sizes)
        tables[t].append(i)
        t = (t + 1) % len(sizes)
    return tables


def table_cost(table: list[int], met: list[list[int]], firsts: list[int]) -> tuple[int, int, int]:
    """(repeats, first seats, spread) of one table of player indices (indices are standing order)."""
    repeats = spread = 0
    for a in range(len(table)):
        p = table[a]
        for b in range(a + 1, len(table)):
            q = table[b]
            repeats += met[p][q]
            spread += abs(p - q)
    return repeats, min(firsts[p] for p in table), spread


def seating_cost(tables: list[list[int]], met: list[list[int]], firsts: list[int]) -> tuple[int, int, int]:
    costs = [table_cost(t, met, firsts) for t in tables]
    return sum(c[0] for c in costs), sum(c[1] for c in costs), sum(c[2] for c in costs)


def _swap_search(start: list[list[int]], met: list[list[int]],
                 firsts: list[int]) -> tuple[tuple[int, int, int], list[list[int]]]:
    """Swap two players of different tables while a swap lowers (repeats, first seats,
    spread); returns ``(cost, tables)``. ``r[p][t]``: the earlier meetings ``p`` would have
    at table ``t`` (``met[p][p]`` is 0), kept up to date, so a swap's change in repeats is
    read in a few additions; a swap that changes no repeats is weighed on first seats (each
    table's two fewest), then on spread."""
    tables = [list(t) for t in start]
    n = len(met)
    count = len(tables)
    r = [[0] * count for _ in range(n)]
    for t, members in enumerate(tables):
        for x in range(n):
            row = met[x]
            r[x][t] = sum(row[y] for y in members)
    improved = True
    while improved:
        improved = False
        for a in range(count):
            for b in range(a + 1, count):
                if _improve_pair(tables, a, b, r, met, firsts):
                    improved = True
    return seating_cost(tables, met, firsts), tables


def _fewest(table: list[int], firsts: list[int]) -> tuple[int, int, int]:
    """(the fewest first seats at the table, who has them, the fewest among the others)."""
    lo = lo2 = 1 << 30
    who = -1
    for x in table:
        f = firsts[x]
        if f < lo:
            lo, lo2, who = f, lo, x
        elif f < lo2:
            lo2 = f
    return lo, who, lo2


def _improve_pair(tables: list[list[int]], a: int, b: int, r: list[list[int]], met: list[list[int]],
                  firsts: list[int]) -> bool:
    """Every improving swap between tables ``a`` and ``b`` found in one scan, made; True if any."""
    ta, tb = tables[a], tables[b]
    swapped = False
    fa, fb = _fewest(ta, firsts), _fewest(tb, firsts)
    for i in range(len(ta)):
        for j in range(len(tb)):
            p, q = ta[i], tb[j]
            rp, rq = r[p], r[q]
            d = rp[b] + rq[a] - 2 * met[p][q] - rp[a] - rq[b]
            if d > 0:
                continue
            if d == 0:
                # first seats: the fewest at each table without the one leaving, with the one coming
                fp, fq = firsts[p], firsts[q]
                after = (min(fa[2] if fa[1] == p else fa[0], fq) + min(fb[2] if fb[1] == q else fb[0], fp))
                df = after - fa[0] - fb[0]
                if df > 0:
                    continue
                if df == 0:
                    ds = 0
                    for x in ta:
                        if x != p:
                            ds += abs(q - x) - abs(p - x)
                    for x in tb:
                        if x != q:
                            ds += abs(p - x) - abs(q - x)
                    if ds >= 0:
                        continue
            ta[i], tb[j] = q, p
            for x in range(len(r)):
                row, mx = r[x], met[x]
                change = mx[q] - mx[p]
                row[a] += change
                row[b] -= change
            fa, fb = _fewest(ta, firsts), _fewest(tb, firsts)
            swapped = True
    return swapped


# seats within a table -------------------------------------------------------------------------
def order_seats(table: list[str], past: Past) -> list[str]:
    """The table's players in seat order: exactly the order, over every order, with the least
    ``SEAT_WEIGHT × (times the first seat's player played first) + (times each other player
    sat in their seat)``; between equal orders, always the same one (the first found)."""
    k = len(table)
    counts = [past.seats.get(p, [0] * 6) for p in table]
    # best[mask]: (cost, order) seating the players in ``mask`` in the first popcount(mask) seats
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for mask in range(1 << k):
        if mask not in best:
            continue
        cost, order = best[mask]
        seat = len(order)
        for i in range(k):
            if mask & (1 << i):
                continue
            c = cost + counts[i][seat] * (SEAT_WEIGHT if seat == 0 else 1)
            nxt = mask | (1 << i)
            held = best.get(nxt)
            if held is None or c < held[0]:
                best[nxt] = (c, order + [i])
    return [table[i] for i in best[(1 << k) - 1][1]]


def repeat_bound(seated: int, largest: int, size: int, most_met: int) -> int:
    """Guarantee 4 of the module's text: the most earlier meetings a player may have at its
    table of ``size``, ``seated`` players seated at tables of at most ``largest``, the most
    earlier meetings anyone seated has had being ``most_met``."""
    below = seated - size + largest - 2
    if below <= 0:
        return most_met
    return (largest - 2 + size) * most_met // below
