"""Issue 17's second speed pass (branch ``fast18``): each new fast path of the strong bot's
search equals the code it replaced. The search itself, sample for sample, is pinned by
``tests/test_search_same.py`` (unchanged by this pass); these tests compare the pieces on
many more inputs than those positions reach.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from deadwood_knock.bots import draws, get_bot
from deadwood_knock.bots.base import Budget
from deadwood_knock.bots.search import MeldKrSearch
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy import core
from deadwood_knock.games.knock_rummy.core import best_layoff, cards_of_mask, gin_layoffs_allowed
from deadwood_knock.games.knock_rummy.melds import (
    count_mask,
    hand_mask,
    min_arrangements,
    min_layout_masks,
)

# --- the random draws ---------------------------------------------------------------------


def test_shuffle_is_random_shuffle_draw_for_draw() -> None:
    for n in range(0, 140):  # past the look-up table's end too (the library's own path)
        for seed in range(12):
            old, new = random.Random(seed * 1000 + n), random.Random(seed * 1000 + n)
            a, b = list(range(n)), list(range(n))
            old.shuffle(a)
            draws.shuffle(new, b)
            assert a == b
            assert old.getrandbits(64) == new.getrandbits(64)  # the same draws taken


def test_sample_is_random_sample_draw_for_draw() -> None:
    for n in range(0, 70):
        for k in range(0, n + 1):
            old, new = random.Random(n * 100 + k), random.Random(n * 100 + k)
            pool = [f"c{i}" for i in range(n)]
            assert draws.sample(new, pool, k) == old.sample(pool, k)
            assert old.getrandbits(64) == new.getrandbits(64)
    # A population past Random.sample's pool threshold (its set branch) and a tuple.
    for seed in range(20):
        old, new = random.Random(seed), random.Random(seed)
        big = tuple(range(300))
        assert draws.sample(new, big, 7) == old.sample(big, 7)
        assert old.random() == new.random()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64), st.integers(0, 60), st.data())
def test_sample_and_shuffle_hypothesis(seed: int, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    old, new = random.Random(seed), random.Random(seed)
    pool = list(range(n))
    assert draws.sample(new, pool, k) == old.sample(pool, k)
    a, b = list(pool), list(pool)
    old.shuffle(a)
    draws.shuffle(new, b)
    assert a == b
    assert old.getstate() == new.getstate()


class _Mine(random.Random):
    """A subclass draws its integers its own way: it must get the library's methods."""

    def random(self) -> float:
        return super().random() ** 2


def test_a_random_subclass_takes_the_librarys_methods() -> None:
    old, new = _Mine(3), _Mine(3)
    a, b = list(range(30)), list(range(30))
    old.shuffle(a)
    draws.shuffle(new, b)
    assert a == b
    assert draws.sample(new, a, 5) == old.sample(a, 5)


# --- Gin's settlement on masks ------------------------------------------------------------


def _gin_counts_before(knocker: int, defender: int, high: bool) -> tuple[int, int]:
    """``core._gin_counts`` as it was before the pass: Arrangement objects, card lists."""
    k_count = count_mask(knocker, high)
    if not gin_layoffs_allowed(k_count):
        return k_count, count_mask(defender, high)
    d_hand = cards_of_mask(defender)
    return k_count, max(
        best_layoff(d_hand, layout.melds, high)[0]
        for layout in min_arrangements(cards_of_mask(knocker), high)
    )


def _meld_rich(rng: random.Random, size: int) -> list[int]:
    """A hand built from a few random sets and runs (ace-high runs too), then filled:
    low counts, many layouts and many places to lay off, unlike a random deal."""
    cards: set[int] = set()
    while len(cards) < size - 2:
        if rng.random() < 0.4:
            rank = rng.randrange(13)
            suits = rng.sample(range(4), rng.choice((3, 3, 4)))
            cards.update(rank + 13 * s for s in suits)
        else:
            suit, start, length = rng.randrange(4), rng.randrange(13), rng.choice((3, 3, 4, 5))
            cards.update(13 * suit + (start + i) % 13 for i in range(length))
    out = list(cards)[:size]
    while len(out) < size:
        c = rng.randrange(52)
        if c not in out:
            out.append(c)
    return out


def _near(rng: random.Random, hand: list[int], size: int) -> list[int]:
    """A defender holding many cards next to the knocker's (its lay-off cards)."""
    spots = {13 * (c // 13) + (c % 13 + d) % 13 for c in hand for d in (-2, -1, 1, 2)}
    spots |= {c % 13 + 13 * s for c in hand for s in range(4)}
    pool = [c for c in spots if c not in hand]
    rng.shuffle(pool)
    out = pool[:size]
    rest = [c for c in range(52) if c not in hand and c not in out]
    return out + rng.sample(rest, size - len(out))


def test_gin_counts_are_as_before() -> None:
    rng = random.Random(18)
    for trial in range(6000):
        high = trial % 2 == 1
        knocker = _meld_rich(rng, rng.choice((10, 10, 11, 7, 4)))
        if trial % 3 == 0:
            defender = _near(rng, knocker, 10)
        else:
            defender = rng.sample([c for c in range(52) if c not in knocker], 10)
        k, d = hand_mask(knocker), hand_mask(defender)
        assert core._gin_counts(k, d, high) == _gin_counts_before(k, d, high)


def test_min_layout_masks_are_min_arrangements_melds() -> None:
    rng = random.Random(7)
    for trial in range(3000):
        high = trial % 2 == 0
        hand = _meld_rich(rng, rng.choice((10, 11, 12)))
        layouts = min_arrangements(hand, high)
        masks = min_layout_masks(hand_mask(hand), high)
        assert len(masks) == len(layouts)
        for (sets, runs), layout in zip(masks, layouts, strict=True):
            melds = [hand_mask(m) for m in layout.melds]
            ours = [*sets, *(sum(1 << (13 * s + r) for r in ranks) for s, ranks in runs)]
            assert sorted(ours) == sorted(melds)
            # The runs read along the suit line, as min_arrangements lays their cards out.
            lines = [m for m in layout.melds if m[0] % 13 != m[1] % 13]
            assert sorted(tuple(13 * s + r for r in ranks) for s, ranks in runs) == sorted(lines)


def test_gin_counts_in_the_searchs_own_settlements() -> None:
    """Every settlement that Gin searches make (seeded positions), old and new alike."""
    seen: list[tuple[int, int, bool]] = []
    fast = core._gin_counts

    def spy(knocker: int, defender: int, high: bool) -> tuple[int, int]:
        seen.append((knocker, defender, high))
        return fast(knocker, defender, high)

    game = get_game("gin")
    bot = get_bot("strong")
    core._gin_counts = spy
    try:
        for seed, high in product(range(4), (False, True)):
            opts = game.options_from_json({"players": 2, "high_aces": high})
            state = game.new_game(opts, seed)
            rng = random.Random(seed)
            for _ in range(6):
                seat = game.to_act(state)
                if seat is None or game.is_over(state):
                    break
                legal = game.legal_actions(state)
                action = bot.act(game, game.observe(state, seat), legal, rng, Budget(iterations=8))
                state, _ = game.apply(state, action)
    finally:
        core._gin_counts = fast
    assert len(seen) > 100
    for k, d, high in seen:
        assert fast(k, d, high) == _gin_counts_before(k, d, high)


def test_gin_playouts_do_not_draw_from_the_stream() -> None:
    """``MeldKrSearch.draws_from_stream`` is False: its values are the same whatever
    stream it is handed (StrongBot.evaluate hands it one unused Random)."""
    from bot_positions import played

    game, state = played("gin", {"players": 2}, 12, 9, bots=("legend",))
    seat = game.to_act(state)
    assert seat is not None
    obs, legal = game.observe(state, seat), game.legal_actions(state)
    from deadwood_knock.bots.view import view_of

    search = MeldKrSearch(view_of(obs, "gin"), "gin")
    assert search.draws_from_stream is False
    sample = search.sample(random.Random(5))
    for action in legal:
        a, b = random.Random(1), random.Random(2)
        assert search.value(sample, action, a) == search.value(sample, action, b)
        assert a.getstate() == random.Random(1).getstate()  # never drawn from


# --- the rummy playouts' memoised look-ups ------------------------------------------------


def _best_discard_brute(m: int, high: bool) -> tuple[int, int]:
    """Every discard tried: the lowest count, ties to the card worth most, then the
    highest index (best_discard_count's rule)."""
    from deadwood_knock.games.points import CARD_POINTS

    cards = cards_of_mask(m)
    n, _, _, c = min((count_mask(m ^ (1 << c), high), -CARD_POINTS[c], -c, c) for c in cards)
    return n, c


def test_best_discard_with_two_sets_memoised_is_exact() -> None:
    """best_discard_mask's memoised branch (two or more ranks held 3+ times), asked twice
    (the second answer from the memo), against every discard tried."""
    from deadwood_knock.games.knock_rummy import melds
    from deadwood_knock.games.knock_rummy.melds import best_discard_mask

    melds._discard_memo_low.clear()  # every first answer below is worked out
    melds._discard_memo_high.clear()
    rng = random.Random(29)
    tried = 0
    for trial in range(4000):
        high = trial % 2 == 0
        ranks = rng.sample(range(13), rng.choice((2, 2, 3)))
        cards = {r + 13 * s for r in ranks for s in rng.sample(range(4), rng.choice((3, 4)))}
        size = rng.choice((8, 11, 11, 12))
        while len(cards) < size:
            cards.add(rng.randrange(52))
        m = hand_mask(list(cards)[:size] if len(cards) > size else cards)
        want = _best_discard_brute(m, high)
        assert best_discard_mask(m, high) == want
        assert best_discard_mask(m, high) == want  # from the memo
        tried += 1
    assert tried == 4000


def test_min_layout_masks_memo_answers_the_same() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hand = _meld_rich(rng, 10)
        first = min_layout_masks(hand_mask(hand), False)
        assert min_layout_masks(hand_mask(hand), False) == first
        assert isinstance(first, tuple)


def _meld_move_before(t: Any, knock_at: int) -> None:
    """``kr_playout.meld_move`` as it was before the pass."""
    from deadwood_knock.bots import kr_playout as kp
    from deadwood_knock.games.knock_rummy.core import DISCARDS, DRAW

    if t.phase == DRAW:
        kp.policy_move(t, knock_at)
        return
    seat = t.to_act
    hand = t.hands[seat]
    ha = t.opts.high_aces
    best = kp._end_or_knock(t, hand, ha, t.opts.gin, knock_at)
    if best is None:
        return
    left, card = best
    banned = t.taken
    near, far = kp.LINKS[ha]
    stock = len(t.stock)
    scale = 1.0 if stock >= kp.LINK_STOCK else stock / kp.LINK_STOCK
    wn, wf = kp.LINK_NEAR * scale, kp.LINK_FAR * scale
    rest = hand ^ (1 << card)
    links = wn * (rest & near[card]).bit_count() + wf * (rest & far[card]).bit_count()
    if links:
        best_key = left + links
        for x in cards_of_mask(hand):
            if x in (banned, card):
                continue
            rest = hand ^ (1 << x)
            lx = wn * (rest & near[x]).bit_count() + wf * (rest & far[x]).bit_count()
            if left + lx >= best_key:
                continue
            key = count_mask(rest, ha) + lx
            if key < best_key:
                best_key, card = key, x
    t.play(DISCARDS[card])


def test_links_leave_the_card_itself_out() -> None:
    from deadwood_knock.bots.kr_playout import LINKS

    for near, far in LINKS:
        for c in range(52):
            assert not (near[c] | far[c]) >> c & 1


def test_meld_move_plays_as_before() -> None:
    """Whole Gin and Knock Rummy hands played by the meld-aware policy, old and new side
    by side from the same deal: the same table after every move."""
    from deadwood_knock.bots.kr_playout import meld_move
    from deadwood_knock.games.knock_rummy.core import OVER
    from deadwood_knock.games.knock_rummy.rules import table_of

    moves = 0
    for name, seed in product(("gin", "knock-rummy"), range(150)):
        game = get_game(name)
        opts = game.options_from_json({"players": 2, "high_aces": seed % 2 == 1})
        old = table_of(game.new_game(opts, seed), single_hand=True)
        new = old.copy()
        knock_at = 10 if name == "gin" else 5 + seed % 6
        while old.phase != OVER and moves < 10**6:
            _meld_move_before(old, knock_at)
            meld_move(new, knock_at)
            moves += 1
            assert (new.hands, new.pile, new.phase, new.to_act) == (
                old.hands,
                old.pile,
                old.phase,
                old.to_act,
            )
        assert new.hand_scores == old.hand_scores
    assert moves > 3000


def test_value_on_stream_is_value_with_that_stream() -> None:
    """Knock Rummy's ``value_on_stream`` (the search loop's call) gives what ``value``
    gives with ``random.Random(stream)``, for every legal action (stock draws leave a
    shorter stock than the rest), the orders it keeps reused across candidates; and Gin's
    search, whose playouts take no stream, the same whatever it is handed."""
    from bot_positions import played
    from deadwood_knock.bots.strong import KrSimSearch
    from deadwood_knock.bots.view import view_of

    checked = 0
    for name, seed, steps in (
        ("knock-rummy", 12, 9),
        ("knock-rummy", 5, 2),
        ("knock-rummy", 77, 20),
        ("gin", 40, 16),
    ):
        players = 3 if seed == 5 else 2
        game, state = played(name, {"players": players}, seed, steps, bots=("legend",))
        seat = game.to_act(state)
        assert seat is not None
        obs, legal = game.observe(state, seat), game.legal_actions(state)
        view = view_of(obs, name)
        search = KrSimSearch(view) if name == "knock-rummy" else MeldKrSearch(view, name)
        checked += _check_value_on_stream(search, legal, random.Random(seed), 6)
    assert checked > 60


def _check_value_on_stream(
    search: Any, legal: list[Any], rng: random.Random, samples: int, after: Any = None
) -> int:
    """``search.value_on_stream`` against ``value`` with ``random.Random(stream)`` on every
    legal action of ``samples`` samples (``after(sample, stream)`` then runs per sample);
    how many were compared."""
    checked = 0
    for _ in range(samples):
        sample = search.sample(rng)
        stream = rng.getrandbits(48)
        for action in legal:
            want = search.value(sample, action, random.Random(stream))
            assert search.value_on_stream(sample, action, stream) == want
            checked += 1
        if after is not None:
            after(sample, stream)
    return checked


def test_count_with_two_sets_is_every_set_choice() -> None:
    """count_mask's two-set case (worked out without the combos) against the minimum over
    every set choice (``_field_combos``), on hands with two or three ranks held 3+ times
    (four of a kind too: the general path)."""
    from deadwood_knock.games.knock_rummy import melds

    rng = random.Random(31)
    for trial in range(6000):
        high = trial % 2 == 1
        table = melds._T_HIGH if high else melds._T_LOW
        ranks = rng.sample(range(13), rng.choice((2, 2, 2, 3)))
        cards = {r + 13 * s for r in ranks for s in rng.sample(range(4), rng.choice((3, 3, 4)))}
        while len(cards) < rng.choice((8, 10, 11, 12)):
            cards.add(rng.randrange(52))
        m = hand_mask(cards)
        trip = melds._trips(m)
        want = min(
            table[a] + table[b] + table[c] + table[d] for a, b, c, d in melds._field_combos(m, trip)
        )
        assert melds._count_with_sets(m, trip, table) == want


def test_dk_value_on_stream_is_value_with_that_stream() -> None:
    """Deadwood Knock's ``value_on_stream`` gives what ``value`` gives with
    ``random.Random(stream)`` for every legal action, and the playout policy draws
    nothing from the stream it is handed (which is why one Random serves a stream)."""
    from bot_positions import played
    from deadwood_knock.bots import dk_playout
    from deadwood_knock.bots.search import InferredSimSearch
    from deadwood_knock.bots.view import view_of

    checked = 0
    for players, seed, steps in ((4, 12, 9), (3, 7, 5), (6, 3, 20), (2, 9, 4)):
        opts = {"players": players, "rounds": 1}
        game, state = played("deadwood-knock", opts, seed, steps, bots=("legend",))
        seat = game.to_act(state)
        assert seat is not None
        obs, legal = game.observe(state, seat), game.legal_actions(state)
        search = InferredSimSearch(view_of(obs, "deadwood-knock"))

        def draws_nothing(sample: Any, stream: int, search: Any = search) -> None:
            handed = random.Random(stream)
            dk_playout.playout(sample.copy(), handed, search.style)
            assert handed.getstate() == random.Random(stream).getstate()

        checked += _check_value_on_stream(search, legal, random.Random(seed), 5, draws_nothing)
    assert checked > 40


def test_dk_playout_options_are_built_as_before() -> None:
    from deadwood_knock.bots import dk_playout
    from deadwood_knock.games.deadwood_knock.core import DeadwoodKnockOptions

    for players in range(0, 9):
        for sleight in (False, True):
            try:
                want: DeadwoodKnockOptions | None = DeadwoodKnockOptions(
                    players=players, rounds=1, sleight_of_hand=sleight
                )
            except ValueError:
                want = None
            assert dk_playout._options(players, sleight) == want
            assert dk_playout._options(players, sleight) == want  # the kept one
