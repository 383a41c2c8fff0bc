"""Card points, written once for every game (DK4, KR2): the one table the engines,
bots, hints and clients read.

An ace counts 1, two to ten their face value, jack, queen and king 10. A joker (Deadwood
Knock only; Knock Rummy and Gin have none) counts -2 in deadwood.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CARD_POINTS",
    "JOKER_DEADWOOD",
    "RANK_LETTERS",
    "RANK_VALUE",
    "card_value",
    "deadwood_term",
    "figure_text",
]

#: Deadwood points by rank index 0..12 (A=1, 2-10 face value, J/Q/K=10).
RANK_VALUE: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: The rank letters in the order of RANK_VALUE (for tables shown to players).
RANK_LETTERS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
#: DK4: a joker in deadwood takes 2 off the count.
JOKER_DEADWOOD: Final = -2
#: Points of every card index 0..53 (52 and 53 are the jokers).
CARD_POINTS: Final = (*(RANK_VALUE[i % 13] for i in range(52)), JOKER_DEADWOOD, JOKER_DEADWOOD)


def card_value(c: int) -> int:
    """Deadwood points of one card."""
    return CARD_POINTS[c]


def figure_text(value: float) -> str:
    """A figure as players read it, with a true minus sign (jokers take deadwood, and so a
    score, below zero); whole numbers plain, others to one decimal.

    >>> figure_text(25), figure_text(-2), figure_text(27.66), figure_text(-3.5)
    ('25', '−2', '27.7', '−3.5')
    """
    text = str(value) if isinstance(value, int) else f"{value:.1f}"
    return text.replace("-", "\N{MINUS SIGN}")


def deadwood_term(points: int, cards: str = "") -> str:
    """Deadwood as a term of a score's sum, the one wording every client uses: taken off
    ("− 9 deadwood"), or added when jokers take it below zero, with the joker's figure
    from this table ("+ 3 deadwood (jokers count −2)"). ``cards``, if given, are named in
    the same bracket.

    >>> deadwood_term(9), deadwood_term(-3)
    ('− 9 deadwood', '+ 3 deadwood (jokers count −2)')
    >>> deadwood_term(-1, "JK A♣")
    '+ 1 deadwood (JK A♣; jokers count −2)'
    """
    notes = [cards] if cards else []
    if points < 0:
        notes.append(f"jokers count {figure_text(JOKER_DEADWOOD)}")
    bracket = f" ({'; '.join(notes)})" if notes else ""
    return f"{'+' if points < 0 else '−'} {abs(points)} deadwood{bracket}"
