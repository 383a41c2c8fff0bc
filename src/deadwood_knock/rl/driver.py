"""What the PettingZoo and Gymnasium environments share: the engine behind one table.

A :class:`Table` holds the game, its parsed options, the action codec, the observation
encoder and the current immutable state. It turns seat observations into tensors and
masks, applies decoded actions, and works out the rewards and the end of an episode.
The environments only add their API (agents, opponents) on top.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np

from deadwood_knock.arena import ROUND_END_KINDS
from deadwood_knock.cards import sort_key
from deadwood_knock.games import GAME_NAMES, get_game
from deadwood_knock.games.base import Event, Game, GameError, IllegalActionError
from deadwood_knock.rl.actions import ActionCodec, IllegalIndexError, Mask, action_codec, index_of
from deadwood_knock.rl.kr_fast import KrTensors, SeatView, observation_at
from deadwood_knock.rl.observations import ObservationEncoder, Vector, observation_encoder

__all__ = [
    "EPISODES",
    "REWARDS",
    "EnvSettings",
    "LazyInfo",
    "MomentInfo",
    "Table",
    "render_text",
    "settings_from",
]

RewardMode = Literal["score", "margin", "outcome"]
EpisodeMode = Literal["match", "round"]
REWARDS: Final = ("score", "margin", "outcome")
EPISODES: Final = ("match", "round")
#: The default penalty for an illegal action: a loss (outcome) or a whole target's worth
#: of points (score, margin), so that breaking a rule never pays.
ILLEGAL_OUTCOME: Final = -1.0
ILLEGAL_POINTS: Final = -100.0


@dataclass(frozen=True, slots=True)
class EnvSettings:
    """An environment's settings, checked: the game and its options, the reward, what
    one episode is, the illegal-action penalty and an optional step limit."""

    game: str
    options: Mapping[str, Any]
    reward: RewardMode = "score"
    episode: EpisodeMode = "match"
    illegal_reward: float = ILLEGAL_POINTS
    max_steps: int | None = None


def settings_from(
    game: str,
    players: int | None,
    reward: str,
    episode: str,
    illegal_reward: float | None,
    max_steps: int | None,
    game_options: Mapping[str, Any],
) -> EnvSettings:
    """Checks every setting; anything wrong raises :class:`GameError` saying what."""
    if game not in GAME_NAMES:
        raise GameError(f"unknown game {game!r}; choose one of: {', '.join(GAME_NAMES)}")
    if reward not in REWARDS:
        raise GameError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if episode not in EPISODES:
        raise GameError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
    if reward == "outcome" and episode != "match":
        raise GameError("the outcome reward needs whole-match episodes (episode='match')")
    if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
        raise GameError(f"max_steps must be a positive whole number or None, not {max_steps!r}")
    options = dict(game_options)
    if players is not None:
        options["players"] = players
    get_game(game).options_from_json(options)  # the engine's own errors for bad options
    if illegal_reward is None:
        illegal_reward = ILLEGAL_OUTCOME if reward == "outcome" else ILLEGAL_POINTS
    return EnvSettings(
        game=game,
        options=options,
        reward=reward,  # type: ignore[arg-type]
        episode=episode,  # type: ignore[arg-type]
        illegal_reward=float(illegal_reward),
        max_steps=max_steps,
    )


class Table:
    """One game in progress, seen one seat at a time."""

    def __init__(self, settings: EnvSettings) -> None:
        self.settings = settings
        self.game: Game[Any, Any] = get_game(settings.game)
        self.options = self.game.options_from_json(settings.options)
        self.players = int(self.options.players)
        self.codec: ActionCodec = action_codec(settings.game)
        self.encoder: ObservationEncoder = observation_encoder(settings.game, self.options)
        self._state: Any = None
        # Knock Rummy and Gin step the engine's core table in place (the rules the public
        # API runs, without copying an immutable state per action); see ``state``.
        self._core: Any = None
        self._melds = not self.game.facts.poker_split
        self.seed = 0
        self.totals: tuple[int, ...] = (0,) * self.players
        self.steps = 0
        # Knock Rummy and Gin: tensors written from the core table (see kr_fast).
        self.fast: KrTensors | None = None
        if self._melds:
            self.fast = KrTensors(self.encoder, self.codec, self.options)
        # Moves on at every deal and action: the legal bits below belong to one moment.
        self._version = 0
        # The legal bits of one seat at one moment: (version * players + seat, bits).
        self._legal_key = -1
        self._legal_bits = 0
        # Whole-match episodes with no step limit: only the match's end ends an episode.
        self.plain_episodes = settings.episode == "match" and settings.max_steps is None

    # -- the game --------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The game's immutable state now (for a core table, built from it)."""
        if self._core is not None:
            from deadwood_knock.games.knock_rummy.rules import state_of

            return state_of(self._core)
        return self._state

    def deal(self, seed: int) -> None:
        """A new match from ``seed``: the deal of ``new_game(options, seed)``, exactly."""
        self.seed = int(seed)
        state = self.game.new_game(self.options, self.seed)
        if self._melds:
            from deadwood_knock.games.knock_rummy.rules import table_of

            self._core = table_of(state)
            self._core.track_seen()
        else:
            self._state = state
        self.totals = tuple(self.game.scores(state))
        self.steps = 0
        self._version += 1

    @property
    def over(self) -> bool:
        if self._core is not None:
            return bool(self._core.to_act is None)
        return bool(self.game.is_over(self._state))

    @property
    def to_act(self) -> int | None:
        if self._core is not None:
            return self._core.to_act  # type: ignore[no-any-return]
        seat = self.game.to_act(self._state)
        return None if seat is None or self.over else int(seat)

    def observe(self, seat: int) -> Any:
        if self._core is not None:
            from deadwood_knock.games.knock_rummy.rules import observe_table

            return observe_table(self._core, seat)
        return self.game.observe(self._state, seat)

    def scores(self) -> tuple[int, ...]:
        if self._core is not None:
            return tuple(self._core.totals)
        return tuple(self.game.scores(self._state))

    def vector(self, observation: Any) -> Vector:
        return self.encoder.encode(observation)

    def mask(self, observation: Any) -> Mask:
        return self.codec.mask(observation)

    def tensors(self, observation: Any) -> dict[str, Any]:
        """The PettingZoo-classic observation: the vector and the action mask."""
        return {"observation": self.vector(observation), "action_mask": self.mask(observation)}

    def decode(self, index: Any, observation: Any) -> Any:
        """The engine action of a legal index; anything else raises
        :class:`IllegalIndexError` saying why."""
        i = index_of(index)
        action = self.codec.decode(i, observation)
        # The indices of the legal actions (ints, by the actions' identity: comparing
        # dataclasses costs more); the codec maps them one to one (tests/test_rl.py).
        legal = self.codec.legal_indices(observation)
        if i not in legal:
            raise IllegalIndexError(
                f"action {i} ({self.codec.label(i)}) is not legal now; legal: {sorted(legal)}"
            )
        return action

    def apply(self, action: Any) -> tuple[Event, ...]:
        core = self._core
        if core is not None:
            why = core.reason(action)
            if why is not None:  # decode checked legality; this is a bug
                raise IllegalIndexError(why)
            events: list[Event] = []
            core.play(action, events)
            self.steps += 1
            self._version += 1
            return tuple(events)
        try:
            self._state, done = self.game.apply(self._state, action)
        except IllegalActionError as exc:  # decode checked legality; this is a bug
            raise IllegalIndexError(str(exc)) from exc
        self.steps += 1
        self._version += 1
        return tuple(done)

    # -- the core table's fast path (Knock Rummy, Gin) ------------------------------

    def legal_bits(self, seat: int) -> int:
        """The seat's legal action indices now, as bits of an int (core tables only)."""
        key = self._version * self.players + seat
        if key == self._legal_key:
            return self._legal_bits
        assert self.fast is not None
        bits = self._legal_bits = self.fast.legal_bits(self._core, seat)
        self._legal_key = key
        return bits

    def seat_tensors(self, seat: int) -> dict[str, Any]:
        """The seat's vector and mask now; written from the core table when there is
        one (equal to ``tensors(observe(seat))``), else encoded from the observation."""
        fast = self.fast
        if fast is None:
            return self.tensors(self.observe(seat))
        key = self._version * self.players + seat
        legal = self._legal_bits if key == self._legal_key else self.legal_bits(seat)
        vector, mask = fast.tensors(self._core, seat, legal)
        return {"observation": vector, "action_mask": mask}

    def view(self, seat: int) -> SeatView:
        """What the seat sees now, its engine observation built when read (core only)."""
        return SeatView(self._core, seat)

    def decode_index(self, index: Any, seat: int) -> Any:
        """:meth:`decode` for the seat to act of a core table, from its legal bits."""
        assert self.fast is not None
        key = self._version * self.players + seat
        legal = self._legal_bits if key == self._legal_key else self.legal_bits(seat)
        return self.fast.decode(index, legal)

    def apply_legal(self, action: Any) -> list[Event]:
        """Play an action :meth:`decode_index` returned (so the engine's legal list
        holds it) on the core table."""
        events: list[Event] = []
        self._core.play(action, events)
        self.steps += 1
        self._version += 1
        return events

    def rewards_if_moved(self) -> list[float] | None:
        """:meth:`rewards`, or ``None`` when every seat's reward is 0 (the core table's
        totals did not move and the match is not over), without building the scores."""
        core = self._core
        if core is not None and core.to_act is not None and tuple(core.totals) == self.totals:
            return None
        return self.rewards()

    # -- rewards and episodes ----------------------------------------------------------

    def round_ended(self, events: Iterable[Event]) -> bool:
        return any(e.kind in ROUND_END_KINDS for e in events)

    def episode_over(self, events: Iterable[Event]) -> bool:
        if self.over:
            return True
        return self.settings.episode == "round" and self.round_ended(events)

    def truncated(self) -> bool:
        limit = self.settings.max_steps
        return limit is not None and self.steps >= limit

    def rewards(self) -> list[float]:
        """Every seat's reward since the last call (score changes are counted once)."""
        now = self.scores()
        delta = [b - a for a, b in zip(self.totals, now, strict=True)]
        self.totals = now
        mode = self.settings.reward
        n = self.players
        if mode == "score":
            return [float(d) for d in delta]
        if mode == "margin":
            whole = sum(delta)
            return [d - (whole - d) / (n - 1) for d in delta]
        if not self.over:
            return [0.0] * n
        return outcome(now)

    def illegal_rewards(self, seat: int) -> list[float]:
        out = [0.0] * self.players
        out[seat] = self.settings.illegal_reward
        return out


def outcome(totals: Sequence[int]) -> list[float]:
    """+1 for the sole best total, 0 for a shared best, -1 for everyone else."""
    best = max(totals)
    tied = sum(1 for t in totals if t == best)
    return [(1.0 if tied == 1 else 0.0) if t == best else -1.0 for t in totals]


# --- text rendering ----------------------------------------------------------------------


def render_text(game: Game[Any, Any], observation: Any, names: Sequence[str]) -> str:
    """The table as one seat sees it, in plain words (no other hidden card)."""
    from deadwood_knock.tui.words import cards_text, describe_event, evaluation_lines

    obs = observation
    seat = obs.seat
    names = [("You" if s == seat else name) for s, name in enumerate(names)]
    dk = game.facts.poker_split
    number = obs.round if dk else obs.hand_number
    unit = f"round {number} of {obs.options.rounds}" if dk else f"hand {number}"
    totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(obs.totals))
    turn = "over" if obs.to_act is None else f"{names[obs.to_act]} to act ({obs.phase})"
    lines = [f"{game.title}, {unit}: {turn}. Totals: {totals}."]
    hand = sorted(obs.hand, key=sort_key)
    lines.append(f"Your hand: {cards_text(hand)}")
    lines += ["  " + line for line in evaluation_lines(game.name, obs)]
    pile = obs.discard_pile
    size = "1 card" if len(pile) == 1 else f"{len(pile)} cards"
    lines.append(f"Pile: {cards_text(pile[-1:])} on top ({size}); stock {obs.stock_size}.")
    for s, cards in enumerate(obs.known_cards):
        if s != seat and cards:
            lines.append(f"{names[s]} is known to hold {cards_text(cards)}.")
    said = [describe_event(e, names, seat) for e in obs.events[-8:]]
    lines += [line for line in said if line]
    return "\n".join(lines)


def bot_rngs(seed: int, players: int) -> list[random.Random]:
    """Each seat's bot RNG for a match: from the deal seed, apart from the deal streams."""
    from deadwood_knock.games.base import derive_rng

    return [random.Random(derive_rng(seed, 0xB07, s).getrandbits(64)) for s in range(players)]


def zero_mask(size: int) -> Mask:
    return np.zeros(size, dtype=np.int8)


class LazyInfo(dict[str, Any]):
    """An ``info`` dict whose ``"observation"`` (the engine observation) is built from a
    :class:`SeatView` the first time it is read: ``info["observation"]``, ``get``, ``in``
    and every way of listing the dict build it, so a loop that never reads it pays
    nothing. The view holds only what the seat may see. Copied or pickled, it is a plain
    dict with the observation built."""

    __slots__ = ("_view",)

    def __init__(self, view: SeatView | None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._view = view

    def _fill(self) -> None:
        view = self._view
        if view is not None:
            self._view = None
            if not dict.__contains__(self, "observation"):
                dict.__setitem__(self, "observation", view.observation())

    def __missing__(self, key: str) -> Any:
        if key == "observation" and self._view is not None:
            self._fill()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        if key == "observation" and self._view is not None:
            return True
        return dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "observation":
            self._fill()
        return dict.get(self, key, default)

    def __setitem__(self, key: str, value: Any) -> None:
        if key == "observation":
            self._view = None
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self._fill()
        dict.__delitem__(self, key)

    def __iter__(self) -> Any:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, LazyInfo):
            other._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        self._fill()
        return dict.copy(self)

    def pop(self, key: str, *default: Any) -> Any:
        self._fill()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        self._fill()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._fill()
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._fill()
        dict.update(self, *args, **kwargs)

    def __reduce_ex__(self, protocol: Any) -> Any:
        self._fill()
        return (dict, (dict.copy(self),))


class MomentInfo(LazyInfo):
    """A :class:`LazyInfo` whose view is a :class:`SeatView`'s tuple itself
    (``SeatView.at``, see :func:`observation_at`): the AEC step's hot path makes one
    object fewer a step."""

    __slots__ = ()

    def _fill(self) -> None:
        at = self._view
        if at is not None:
            self._view = None
            if not dict.__contains__(self, "observation"):
                dict.__setitem__(self, "observation", observation_at(at))  # type: ignore[arg-type]
