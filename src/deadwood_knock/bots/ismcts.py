"""Information-set MCTS for heads-up Knock Rummy and Gin (issue #17, fourth rummy pass).

Single-observer IS-MCTS (Cowling, Powley and Whitehouse 2012): one tree over the
searching seat's information sets. Every descent starts from a fresh determinization
(the hidden hand and the stock dealt by the caller's sampler, so the bot never sees
more than its observation), walks the tree from the root choosing at each node by UCB
among the children *available* in this deal (a child's exploration term counts the
times it was available, not its parent's visits), expands one node and finishes the
hand with the caller's playout policy on the engine's mutable core
(``games/knock_rummy/core.py``; every rule is the core's: legality, settling). It backs
up the searching seat's hand score; the opponent's nodes choose by the negative (a
heads-up hand nets to zero).

Branching is kept small: a draw is the stock or the top; a throw is one of the
``TREE_DISCARDS`` best discards (Gin: the meld-aware key of ``kr_playout.meld_move``,
count left plus links kept; Knock Rummy: the count left, as its playouts throw) and the
lowest-count knock when the table allows one (in Knock Rummy without a limit that is at
any count, so the tree weighs the early knocks both seats really make). A rummy is
forced, as the bots play it.

``SearchBot`` (``bots/search.py``) uses it for the games in ``search.ISMCTS_RUMMY``
(off in play until docs/bots.md's rule says otherwise); its root is ``strong``'s own
candidates.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from deadwood_knock.bots import kr_playout
from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    OVER,
    RUMMIES,
    RUMMY_NO_DISCARD,
    Discard,
    Draw,
    Knock,
    KrTable,
    Rummy,
    cards_of_mask,
)
from deadwood_knock.games.knock_rummy.melds import count_mask

__all__ = ["Node", "TreeSearch", "action_code", "descend", "play_code", "tree_actions"]

#: Discards a tree node weighs, plus the lowest-count knock (or the forced rummy).
TREE_DISCARDS = 3
#: UCB exploration on values scaled by ``VALUE_SCALE`` (a hand score of 25 is 1).
UCB_C = 0.7
VALUE_SCALE = 25.0
#: Descents per budget iteration, each on its own deal of the hidden cards (the flat
#: search plays every kept candidate on one deal: two to five playouts an iteration).
PER_ITERATION = 2

_BIT = tuple(1 << i for i in range(52))
# Action codes: 0 stock, 1 top, 2 + c discard c, 54 + c knock with c, 106 + c rummy with
# c, 158 rummy without a discard.
_STOCK, _PILE, _DISCARD, _KNOCK, _RUMMY, _RUMMY_NONE = 0, 1, 2, 54, 106, 158

Move = Callable[[KrTable, int], None]


def action_code(action: object) -> int | None:
    """The tree's code of an engine action (``None``: not a Knock Rummy / Gin move)."""
    if isinstance(action, Draw):
        return _STOCK if action.source == "stock" else _PILE
    if isinstance(action, Discard):
        return _DISCARD + action.card
    if isinstance(action, Knock):
        return None if action.discard is None else _KNOCK + action.discard
    if isinstance(action, Rummy):
        return _RUMMY_NONE if action.discard is None else _RUMMY + action.discard
    return None


def play_code(t: KrTable, code: int) -> None:
    """Play the move ``code`` names on the table (the core checks nothing here: codes
    come from :func:`tree_actions` or from legal actions)."""
    if code == _STOCK:
        t.play(DRAW_STOCK)
    elif code == _PILE:
        t.play(DRAW_PILE)
    elif code < _KNOCK:
        t.play(DISCARDS[code - _DISCARD])
    elif code < _RUMMY:
        t.play(KNOCKS[code - _KNOCK])
    elif code < _RUMMY_NONE:
        t.play(RUMMIES[code - _RUMMY])
    else:
        t.play(RUMMY_NO_DISCARD)


class Node:
    """One action sequence from the root: visits, value sum and sum of squares (the
    searching seat's scores), how often it was available, its children by code."""

    __slots__ = ("avail", "children", "n", "sq", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.sq = 0.0
        self.avail = 0
        self.children: dict[int, Node] = {}

    def mean(self) -> float:
        return self.w / self.n if self.n else -math.inf

    def stderr(self) -> float:
        """The standard error of the mean (infinite below two visits)."""
        if self.n < 2:
            return math.inf
        m = self.w / self.n
        var = max(0.0, self.sq / self.n - m * m) * self.n / (self.n - 1)
        return math.sqrt(var / self.n)


def tree_actions(t: KrTable) -> list[int]:
    """The moves a tree node weighs for the seat to act on table ``t``, legal there."""
    seat = t.to_act
    assert seat is not None
    if t.phase == DRAW:
        out = []
        if t.reason(DRAW_STOCK) is None:
            out.append(_STOCK)
        if t.pile and t.reason(DRAW_PILE) is None:
            out.append(_PILE)
        return out
    hand = t.hands[seat]
    ha = t.opts.high_aces
    gin = t.opts.gin
    if not gin and count_mask(hand, ha) == 0:
        return [_RUMMY_NONE]
    if gin:
        near, far = kr_playout.LINKS[ha]
        stock = len(t.stock)
        scale = 1.0 if stock >= kr_playout.LINK_STOCK else stock / kr_playout.LINK_STOCK
        wn, wf = kr_playout.LINK_NEAR * scale, kr_playout.LINK_FAR * scale
    limit = t.opts.knock_limit
    keyed: list[tuple[float, int]] = []
    knock: tuple[int, int] | None = None
    for c in cards_of_mask(hand):
        if c == t.taken:
            continue
        rest = hand ^ _BIT[c]
        left = count_mask(rest, ha)
        if left == 0 and not gin:
            return [_RUMMY + c]
        if (limit is None or left <= limit) and (knock is None or left < knock[0]):
            knock = (left, c)
        key = float(left)
        if gin:
            key += wn * (rest & near[c]).bit_count() + wf * (rest & far[c]).bit_count()
        keyed.append((key, c))
    keyed.sort()
    out = [_DISCARD + c for _, c in keyed[:TREE_DISCARDS]]
    if knock is not None:
        out.insert(0, _KNOCK + knock[1])
    return out


def descend(
    t: KrTable,
    root: Node,
    root_codes: list[int],
    seat: int,
    knock_at: int,
    move: Move | None = None,
) -> float:
    """One IS-MCTS descent from ``root`` on the deal ``t`` (changed in place): select by
    UCB among the moves available here (``root_codes`` at the root, else
    :func:`tree_actions`), expand one, play out with ``move`` (``kr_playout``'s plain
    policy unless given); backs up and returns the seat's hand score."""
    path: list[Node] = []
    node = root
    acts: list[int] | None = root_codes
    while t.phase != OVER:
        if acts is None:
            acts = tree_actions(t)
        if not acts:
            break
        chosen: Node | None = None
        code = -1
        for a in acts:  # an untried move first: expand it
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = Node()
            if child.n == 0:
                chosen, code = child, a
                break
        if chosen is not None:
            chosen.avail += 1
            play_code(t, code)
            path.append(chosen)
            break
        sign = 1.0 if t.to_act == seat else -1.0
        best_u = -math.inf
        for a in acts:
            child = node.children[a]
            child.avail += 1
            u = sign * child.w / (child.n * VALUE_SCALE) + UCB_C * math.sqrt(
                math.log(child.avail) / child.n
            )
            if u > best_u:
                best_u, chosen, code = u, child, a
        assert chosen is not None
        play_code(t, code)
        path.append(chosen)
        node = chosen
        acts = None
    if t.phase != OVER:
        value = kr_playout.playout(t, knock_at, move=move)[seat]
    else:
        assert t.hand_scores is not None
        value = float(t.hand_scores[seat])
    for n in path:
        n.n += 1
        n.w += value
        n.sq += value * value
    return value


def run(
    sample: Callable[[random.Random], KrTable],
    root_codes: list[int],
    seat: int,
    knock_at: int,
    rng: random.Random,
    more: Callable[[int], bool],
    move: Move | None = None,
) -> Node:
    """Build the tree: each iteration deals a fresh determinization with ``sample`` and
    makes ``PER_ITERATION`` descents, each on its own copy with the stock shuffled again
    (the stock's order is a guess); ``more(iterations done)`` says whether to go on.
    Returns the root (its children are ``root_codes``')."""
    root = Node()
    for c in root_codes:
        root.children[c] = Node()
    it = 0
    while True:
        deal = sample(rng)
        for _ in range(PER_ITERATION):
            t = deal.copy()
            rng.shuffle(t.stock)
            descend(t, root, root_codes, seat, knock_at, move)
        it += 1
        if not more(it):
            return root


def beats(b: Node, a: Node, z: float) -> bool:
    """Whether ``b``'s mean is ``z`` standard errors (unpaired) above ``a``'s."""
    if b.n < 4 or a.n < 4:
        return b.n > 0 and a.n == 0
    return b.mean() - a.mean() > z * math.hypot(b.stderr(), a.stderr())


class TreeSearch:
    """The flat search's paired root with a tree below it: a sampler (``sample``,
    ``knock_at``, ``move`` as ``strong``'s Knock Rummy / Gin searches have them) whose
    value of an action on a deal is one IS-MCTS descent of that action's own subtree (both
    seats' later moves by UCB over the moves available in the deal, then the playout),
    instead of one playout of the fixed policy. Every action of a sample sees the same
    stock order (the caller's stream), so the flat search's comparisons stay paired."""

    def __init__(self, inner: Any, seat: int) -> None:
        self.inner = inner
        self.seat = seat
        self.knock_at: int = inner.knock_at
        self.move: Move | None = getattr(inner, "move", None)
        self.trees: dict[int, Node] = {}

    def sample(self, rng: random.Random) -> KrTable:
        table: KrTable = self.inner.sample(rng)
        return table

    def value(self, sample: KrTable, action: object, rng: random.Random) -> float:
        code = action_code(action)
        sim = sample.copy()
        if code is None or not kr_playout.apply_action(sim, self.seat, action):
            return -1000.0
        rng.shuffle(sim.stock)  # the stock's order is a guess: one per sample, every action
        node = self.trees.get(code)
        if node is None:
            node = self.trees[code] = Node()
        if sim.phase == OVER:
            assert sim.hand_scores is not None
            return float(sim.hand_scores[self.seat])
        return descend(sim, node, tree_actions(sim), self.seat, self.knock_at, self.move)
