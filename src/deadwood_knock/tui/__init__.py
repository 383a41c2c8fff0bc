"""The terminal client: play Deadwood Knock, Knock Rummy or Gin against bots locally.

``main(args)`` is what ``deadwood-knock play`` calls; :class:`Session` is the in-process
table (engine + bots) and :class:`DeadwoodApp` the Textual screen over it.
"""

from __future__ import annotations

import argparse

from deadwood_knock.tui.session import HUMAN_SEAT, Session, opponent_list, seeded

__all__ = ["HUMAN_SEAT", "Session", "build_session", "main"]


def build_session(args: argparse.Namespace) -> Session:
    """A session from ``play``'s arguments (see :func:`deadwood_knock.cli.build_parser`)."""
    return Session(
        args.game,
        opponent_list(args.bots),
        seeded(args.seed),
        sleight_of_hand=bool(args.sleight_of_hand),
        rounds=args.rounds,
        target=getattr(args, "target", None),
    )


def main(args: argparse.Namespace) -> int:
    from deadwood_knock.tui.app import DeadwoodApp

    app = DeadwoodApp(build_session(args), bot_pause=float(getattr(args, "pause", 0.6)))
    app.run()
    return 0
