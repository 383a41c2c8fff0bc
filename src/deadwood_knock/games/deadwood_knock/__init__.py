"""Deadwood Knock: the rules (rulings DK1-DK10) and the hand evaluator (DK3).

``GAME`` (public name ``deadwood-knock``) implements the engine API of
:mod:`deadwood_knock.games.base` on the mutable :class:`~.core.Core`, where every rule
is written once (the bots' playouts step it too); :mod:`.hand` is the evaluator the
rules, bots and benchmarks share.
"""

from deadwood_knock.games.deadwood_knock.core import Core
from deadwood_knock.games.deadwood_knock.hand import (
    HandEvaluation,
    IllegalSplitError,
    best_five_strength,
    evaluate,
    evaluate_batch,
    legal_splits,
    split_result,
)
from deadwood_knock.games.deadwood_knock.rules import (
    GAME,
    Call,
    DeadwoodKnockAction,
    DeadwoodKnockGame,
    DeadwoodKnockObservation,
    DeadwoodKnockOptions,
    DeadwoodKnockState,
    Draw,
    Fold,
    Knock,
    Reveal,
    RoundResult,
    Stand,
    action_from_json,
    apply,
    determinize,
    legal_actions,
    new_game,
    observe,
    position_from_json,
    position_to_json,
    winners,
)

__all__ = [
    "GAME",
    "Call",
    "Core",
    "DeadwoodKnockAction",
    "DeadwoodKnockGame",
    "DeadwoodKnockObservation",
    "DeadwoodKnockOptions",
    "DeadwoodKnockState",
    "Draw",
    "Fold",
    "HandEvaluation",
    "IllegalSplitError",
    "Knock",
    "Reveal",
    "RoundResult",
    "Stand",
    "action_from_json",
    "apply",
    "best_five_strength",
    "determinize",
    "evaluate",
    "evaluate_batch",
    "legal_actions",
    "legal_splits",
    "new_game",
    "observe",
    "position_from_json",
    "position_to_json",
    "split_result",
    "winners",
]
