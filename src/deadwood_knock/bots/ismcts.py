"""Information-set MCTS for heads-up Gin: ``strong-mcts``, a variant of ``strong``.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse 2012). Each iteration deals the
hidden cards as ``strong`` does at Gin (the inference model: ``InferredKrSearch.sample``,
the sampled stock order standing for the chance of the draws), then descends one tree
whose nodes are the action sequences from the root, both players' moves, choosing at each
node by UCB among the children *available* in this deal (a child's exploration term
counts the times it was available, not its parent's visits), expands one node and
finishes the hand with ``strong``'s cheap playout policy (``kr_playout.meld_move`` on the
mutable core, knocking at 10). It backs up the searching seat's hand score, as the flat
search scores Gin; the opponent's nodes choose by its score (the negative: Gin is
zero-sum heads-up).

Branching is kept small: a draw is the stock or the top; a throw is one of the
``TREE_DISCARDS`` best discards by the meld-aware key (count left plus the links kept,
``meld_move``'s key) or the lowest-count knock. At the root the candidates are
``strong``'s own (``gin_weighed``, six candidates and the best knock, the anchor
``gin_choice`` first), and the anchor is kept unless the most visited move's mean beats
it by ``ROOT_Z`` standard errors (the flat search's rule, unpaired).

It plays only heads-up Gin; anything else is ``strong``'s search. One budget iteration is
one deal and ``PER_ITERATION`` descents on it (about the CPU of one of the flat search's
iterations, which plays every kept candidate on one deal); under a time budget it goes
on until the time is up.

``strong-mcts-paired`` (:class:`PairedIsmctsBot`) keeps ``strong``'s flat search at the
root (every kept candidate on each deal, paired; successive halving; the anchor rule) and
values a candidate on a deal by one descent of its own subtree (:class:`TreeKrSearch`).
Both are measured against ``strong-v1`` in docs/bots.md ("Twelfth pass (Gin)").
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from deadwood_knock.bots import kr_playout
from deadwood_knock.bots.base import A, Budget, O
from deadwood_knock.bots.kr import options_of
from deadwood_knock.bots.search import GIN_WIDTH, InferredKrSearch, SearchBot, gin_weighed
from deadwood_knock.bots.strong import ActionValue, Search, playout_knock_at
from deadwood_knock.bots.view import TableView, view_of
from deadwood_knock.games.base import Action, Game
from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    OVER,
    Discard,
    Draw,
    Knock,
    KrTable,
    cards_of_mask,
)
from deadwood_knock.games.knock_rummy.melds import count_mask

__all__ = ["IsmctsBot", "PairedIsmctsBot"]

#: Discards a tree node weighs (the best by the meld-aware key), plus the best knock.
TREE_DISCARDS = 3
#: UCB exploration on values scaled by ``VALUE_SCALE`` (a Gin hand score of 25 is 1).
UCB_C = 0.7
VALUE_SCALE = 25.0
#: Descents per budget iteration, each on one deal of the hidden cards (the flat search
#: plays every kept candidate on its deal: about two playouts an iteration after the culls).
PER_ITERATION = 2
#: The root keeps the anchor unless the most visited move's mean beats it by this many
#: standard errors (``None``: the most visited move, whatever the anchor).
ROOT_Z: float | None = 1.0
#: Opponent nodes choose by UCB (the brief's IS-MCTS); ``False``: by the playout policy.
OPPONENT_IN_TREE = True

_BIT = tuple(1 << i for i in range(52))
_STOCK, _PILE = 0, 1  # action codes: 0 stock, 1 top, 2 + c discard c, 54 + c knock with c


def _code(action: object) -> int | None:
    if isinstance(action, Draw):
        return _STOCK if action.source == "stock" else _PILE
    if isinstance(action, Discard):
        return 2 + action.card
    if isinstance(action, Knock) and action.discard is not None:
        return 54 + action.discard
    return None


def _play(t: KrTable, code: int) -> None:
    if code == _STOCK:
        t.play(DRAW_STOCK)
    elif code == _PILE:
        t.play(DRAW_PILE)
    elif code < 54:
        t.play(DISCARDS[code - 2])
    else:
        t.play(KNOCKS[code - 54])


class Node:
    """One action sequence from the root: visits, value sum (the searching seat's), how
    often it was available, and its children by action code."""

    __slots__ = ("avail", "children", "n", "sq", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.sq = 0.0
        self.avail = 0
        self.children: dict[int, Node] = {}


def tree_actions(t: KrTable) -> list[int]:
    """The moves a tree node weighs for the seat to act on table ``t``, best first."""
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
        if limit is not None and left <= limit and (knock is None or left < knock[0]):
            knock = (left, c)
        links = wn * (rest & near[c]).bit_count() + wf * (rest & far[c]).bit_count()
        keyed.append((left + links, c))
    keyed.sort()
    out = [2 + c for _, c in keyed[:TREE_DISCARDS]]
    if knock is not None:
        out.insert(0, 54 + knock[1])
    return out


class IsmctsBot(SearchBot):
    """``strong-mcts``: see the module docstring."""

    name = "strong-mcts"
    paired = False

    def evaluate(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
        cull: bool = True,
    ) -> list[ActionValue[A]]:
        if game.facts.poker_split:
            return super().evaluate(game, observation, legal, rng, budget, cull)
        view = view_of(observation, game.name)
        _high, _limit, gin = options_of(view.raw)
        search = self._search(game, observation, view)
        if not gin or view.players != 2 or not isinstance(search, InferredKrSearch):
            return super().evaluate(game, observation, legal, rng, budget, cull)
        if budget is None:
            budget = self.default_budget or self.budgets[1]
        started = time.perf_counter()
        forced = self._forced(game.name, view, legal)
        if forced is not None:
            return [ActionValue(forced, 0.0, 0, 0.0)]
        legal = gin_weighed(view, legal)
        priors = self._priors(game.name, view, legal, rng)
        anchor = self._gin_anchor(view, legal)
        top_prior = max(pr for _, pr in priors) + 1.0
        priors = [(a, top_prior if a is anchor else pr) for a, pr in priors]
        ranked = sorted(priors, key=lambda ap: -ap[1])
        keep = self._candidates(game, ranked, GIN_WIDTH, True)
        if len(keep) == 1:
            return [ActionValue(keep[0][0], keep[0][1], 0, keep[0][1])]
        roots: list[tuple[int, A, float]] = []
        for a, pr in keep:
            code = _code(a)
            if code is not None:
                roots.append((code, a, pr))
        if len(roots) < 2:
            return super().evaluate(game, observation, legal, rng, budget, cull)
        root = Node()
        codes = [c for c, _, _ in roots]
        for c in codes:
            root.children[c] = Node()
        seat = view.seat
        knock_at = playout_knock_at(True)
        deadline = None if budget.seconds is None else started + budget.seconds
        limit = budget.iterations
        it = 0
        while True:
            sample = search.sample(rng)
            for _ in range(PER_ITERATION - 1):
                descend(sample.copy(), root, codes, seat, knock_at)
            descend(sample, root, codes, seat, knock_at)
            it += 1
            if limit is not None and it >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        out: list[ActionValue[A]] = []
        for code, a, pr in roots:
            ch = root.children[code]
            out.append(ActionValue(a, ch.w / ch.n if ch.n else float("-inf"), ch.n, pr))
        order = sorted(range(len(out)), key=lambda i: (-out[i].samples, -out[i].value))
        best = order[0]
        anchor_i = 0  # the anchor has the top prior: first kept
        if ROOT_Z is not None and best != anchor_i:
            b, an = root.children[roots[best][0]], root.children[roots[anchor_i][0]]
            if not _beats(b, an, ROOT_Z):
                order.remove(anchor_i)
                order.insert(0, anchor_i)
        return [out[i] for i in order]

    def _search(self, game: Game[Any, Any, O], observation: O, view: TableView) -> Search:
        search = super()._search(game, observation, view)
        if isinstance(search, InferredKrSearch) and view.players == 2 and self.paired:
            return TreeKrSearch(search)
        return search


class PairedIsmctsBot(IsmctsBot):
    """``strong-mcts-paired``: ``strong``'s flat search at the root (every kept candidate
    on each deal, paired, successive halving, the anchor kept unless beaten by one standard
    error of the paired difference), with each candidate valued by an IS-MCTS descent of
    its own subtree instead of one fixed-policy playout (``TreeKrSearch``)."""

    name = "strong-mcts-paired"
    paired = True

    def evaluate(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
        cull: bool = True,
    ) -> list[ActionValue[A]]:
        return SearchBot.evaluate(self, game, observation, legal, rng, budget, cull)


class TreeKrSearch:
    """``strong``'s Gin sampler; an action's value on a deal is one descent of that
    action's subtree (both seats' later moves by UCB over the moves available in the
    deal, then the playout)."""

    def __init__(self, inner: InferredKrSearch) -> None:
        self.inner = inner
        self.seat = inner.view.seat
        self.knock_at = playout_knock_at(True)
        self.trees: dict[int, Node] = {}

    def sample(self, rng: random.Random) -> KrTable:
        return self.inner.sample(rng)

    def value(self, sample: KrTable, action: Action, rng: random.Random) -> float:
        code = _code(action)
        sim = sample.copy()
        if code is None or not kr_playout.apply_action(sim, self.seat, action):
            return -1000.0
        node = self.trees.get(code)
        if node is None:
            node = self.trees[code] = Node()
        return descend(sim, node, None, self.seat, self.knock_at)


def descend(
    t: KrTable, root: Node, root_codes: list[int] | None, seat: int, knock_at: int
) -> float:
    """One IS-MCTS descent from ``root`` on the deal ``t`` (changed in place): select by
    UCB among the moves available here (``root_codes`` at the root, else
    :func:`tree_actions`), expand one, play out; backs up and returns the seat's score."""
    path: list[Node] = []
    node = root
    acts: list[int] | None = root_codes
    while True:
        if t.phase == OVER:
            break
        if acts is None:
            acts = tree_actions(t)
        if not acts:
            break
        mover = t.to_act
        if mover != seat and not OPPONENT_IN_TREE:
            probe = t.copy()
            kr_playout.meld_move(probe, knock_at)
            code = _last_code(t, probe)
            child = node.children.get(code)
            if child is None:
                child = node.children[code] = Node()
                _play(t, code)
                path.append(child)
                break
            _play(t, code)
            path.append(child)
            node = child
            acts = None
            continue
        chosen: Node | None = None
        code = -1
        for a in acts:
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = Node()
            if child.n == 0:
                chosen, code = child, a
                break
        if chosen is not None:
            chosen.avail += 1
            _play(t, code)
            path.append(chosen)
            break
        sign = 1.0 if mover == seat else -1.0
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
        _play(t, code)
        path.append(chosen)
        node = chosen
        acts = None
    if t.phase != OVER:
        value = kr_playout.playout(t, knock_at, move=kr_playout.meld_move)[seat]
    else:
        assert t.hand_scores is not None
        value = float(t.hand_scores[seat])
    for n in path:
        n.n += 1
        n.w += value
        n.sq += value * value
    return value


def _last_code(before: KrTable, after: KrTable) -> int:
    """The code of the one move that took ``before`` to ``after`` (same seat's turn)."""
    if before.phase == DRAW:
        return _PILE if len(after.pile) < len(before.pile) else _STOCK
    seat = before.to_act
    assert seat is not None
    gone = before.hands[seat] & ~after.hands[seat]
    c = gone.bit_length() - 1
    knocked = after.phase == OVER and after.hand_scores is not None and any(after.hand_scores)
    return 54 + c if knocked else 2 + c  # a void hand (no score) ended by a discard


def _beats(b: Node, a: Node, z: float) -> bool:
    """Whether ``b``'s mean is ``z`` standard errors above ``a``'s (unpaired)."""
    if b.n < 4 or a.n < 4:
        return b.n > 0 and a.n == 0
    mb, ma = b.w / b.n, a.w / a.n
    vb = max(0.0, b.sq / b.n - mb * mb) * b.n / (b.n - 1)
    va = max(0.0, a.sq / a.n - ma * ma) * a.n / (a.n - 1)
    return mb - ma > z * math.sqrt(vb / b.n + va / a.n)
