"""Deadwood Knock: rules (DK1-DK10) and the hand evaluator."""

from deadwood_knock.games.deadwood_knock.hand import (
    HandResult,
    best_five_strength,
    evaluate,
    evaluate_batch,
    legal_splits,
    split_result,
)

__all__ = [
    "HandResult",
    "best_five_strength",
    "evaluate",
    "evaluate_batch",
    "legal_splits",
    "split_result",
]
