"""The bot interface and registry."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from deadwood_knock.games.base import Action, Game, GameError, Observation

#: The action type of the game a bot is playing (each game's own action classes): a bot
#: answers with one of ``legal``, so it returns that type.
A = TypeVar("A", bound=Action)
#: The observation type of that game (``DeadwoodKnockObservation``,
#: ``KnockRummyObservation``, a test game's own); bots read it through ``view_of``.
O = TypeVar("O", bound=Observation)  # noqa: E741


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think: a wall-clock limit, an iteration limit, or both."""

    seconds: float | None = None
    iterations: int | None = None


@dataclass(slots=True)
class Deadline:
    """A wall-clock deadline that a loop of like steps (a search's samples, a pot's deals)
    keeps, leaving time for the work that follows the loop.

    :meth:`start` is called as the loop begins; :meth:`fits` after some steps tells
    whether ``ahead`` more steps still fit: at the longest wall time a step has taken so
    far (measured between one look at the clock and the next; a step the process spent
    waiting for a core counts as it was), they and the reserve must end by ``at``. The
    reserve is ``reserve_cpu`` (the CPU seconds the work after the loop takes, measured)
    times how much longer than its CPU time the loop took on the wall clock (at least 1):
    a process that has a third of a core needs three times as long for the same work.
    ``wall`` and ``cpu`` are the clocks (``time.perf_counter``, ``time.process_time``; a
    test injects its own).
    """

    at: float
    reserve_cpu: float = 0.0
    wall: Callable[[], float] = time.perf_counter
    cpu: Callable[[], float] = time.process_time
    _wall0: float = field(default=0.0, init=False)
    _cpu0: float = field(default=0.0, init=False)
    #: The last look at the clock (wall time, steps done) and the longest step so far.
    _seen: tuple[float, int] = field(default=(0.0, 0), init=False)
    _longest: float = field(default=0.0, init=False)

    @classmethod
    def after(
        cls,
        seconds: float,
        reserve_cpu: float = 0.0,
        wall: Callable[[], float] = time.perf_counter,
        cpu: Callable[[], float] = time.process_time,
    ) -> Deadline:
        """The deadline ``seconds`` from now (by ``wall``)."""
        return cls(wall() + seconds, reserve_cpu, wall, cpu)

    def start(self) -> None:
        """The loop begins: its steps are timed from here."""
        self._wall0, self._cpu0 = self.wall(), self.cpu()
        self._seen, self._longest = (self._wall0, 0), 0.0

    def slowdown(self, now: float | None = None) -> float:
        """Wall time over CPU time since :meth:`start` (at least 1; 1 before any CPU)."""
        elapsed = (self.wall() if now is None else now) - self._wall0
        used = self.cpu() - self._cpu0
        return max(1.0, elapsed / used) if used > 0 else 1.0

    def reserve(self, now: float | None = None) -> float:
        """The wall seconds kept for the work after the loop."""
        return self.reserve_cpu * self.slowdown(now)

    def fits(self, done: int, ahead: int = 1) -> bool:
        """Whether ``ahead`` more steps, after ``done`` since :meth:`start`, and then the
        reserve still end by :attr:`at`."""
        now = self.wall()
        then, before = self._seen
        if done > before:
            self._longest = max(self._longest, (now - then) / (done - before))
            self._seen = (now, done)
        return now + ahead * self._longest + self.reserve(now) <= self.at


@dataclass(frozen=True, slots=True)
class KnockOutlook:
    """A knock decision in points: the seat's expected result if it knocks now, and if it
    plays on instead (knocking at its next turn, or answering a rival who ends the round
    first). ``edge`` > 0 favours knocking now. Deadwood Knock measures the round result
    against the table's mean; Knock Rummy and Gin the hand's score."""

    knock: float
    wait: float
    samples: int

    @property
    def edge(self) -> float:
        return self.knock - self.wait


class Bot(Protocol):
    """Chooses one of ``legal`` from what its seat may see; never the full state."""

    name: str

    def act(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
    ) -> A: ...


class RandomBot:
    """Uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def act(
        self,
        game: Game[Any, A, O],
        observation: O,
        legal: Sequence[A],
        rng: random.Random,
        budget: Budget | None = None,
    ) -> A:
        return legal[rng.randrange(len(legal))]


class UnknownBotError(GameError):
    pass


_REGISTRY: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def register(name: str, factory: Callable[[], Bot]) -> None:
    _REGISTRY[name] = factory


def bot_names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


BOT_NAMES = bot_names


#: Characters (historic figures) register as ``figure:<id>``; the bare id works too.
FIGURE_PREFIX = "figure:"


def resolve_bot_name(name: str) -> str:
    """The registered name ``name`` means: case and surrounding spaces do not matter, and a
    character may be named without its ``figure:`` prefix. Unknown: :class:`UnknownBotError`
    listing the valid names."""
    key = name.strip().lower()
    if key in _REGISTRY:
        return key
    if FIGURE_PREFIX + key in _REGISTRY:
        return FIGURE_PREFIX + key
    builtin = [n for n in bot_names() if not n.startswith(FIGURE_PREFIX)]
    figures = [n for n in bot_names() if n.startswith(FIGURE_PREFIX)]
    listed = f"valid bots: {', '.join(builtin)}"
    if figures:
        listed += f"; characters: {', '.join(figures)}"
    raise UnknownBotError(f"unknown bot {name!r}; {listed}")


def get_bot(name: str) -> Bot:
    """A fresh bot by its public name (see :func:`resolve_bot_name`)."""
    return _REGISTRY[resolve_bot_name(name)]()
