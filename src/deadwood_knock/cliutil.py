"""Shared pieces of the command line: the parser class, help layout and number checks.

Every subcommand (``hand``, ``play``, ``arena``, ``bench``, ``serve``) builds its options
from these, so a bad value reads the same everywhere: one line naming the option and
what it needs, exit status 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

__all__ = [
    "EXIT_USAGE",
    "HelpFormatter",
    "Parser",
    "add_table_options",
    "non_negative_float",
    "non_negative_int",
    "port_number",
    "positive_float",
    "positive_int",
]

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """Usage errors exit with status 2 and one line (argparse's own message)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that shows each option's default (unless it has none worth showing or the
    help text already says it), keeping descriptions as written."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default is argparse.SUPPRESS
            or not action.option_strings
        ):
            return text
        return f"{text} (default: %(default)s)"


def _number(
    kind: Callable[[str], float], test: Callable[[float], bool], need: str
) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {need}") from None
        if not test(value):
            raise argparse.ArgumentTypeError(f"{text!r} is not {need}")
        return value

    return parse


def positive_int(text: str) -> int:
    """A whole number of at least 1 (matches, rounds, jobs, iterations...)."""
    return int(_number(int, lambda v: v >= 1, "a whole number of at least 1")(text))


def non_negative_int(text: str) -> int:
    """A whole number of at least 0 (seeds)."""
    return int(_number(int, lambda v: v >= 0, "a whole number of at least 0")(text))


def positive_float(text: str) -> float:
    """A number above 0 (a time budget)."""
    return _number(float, lambda v: v > 0 and v != float("inf"), "a number above 0")(text)


def non_negative_float(text: str) -> float:
    """A number of 0 or more (a pause)."""
    return _number(float, lambda v: 0 <= v < float("inf"), "a number of 0 or more")(text)


def port_number(text: str) -> int:
    """A TCP port, 1 to 65535."""
    return int(_number(int, lambda v: 1 <= v <= 65535, "a port from 1 to 65535")(text))


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """The table options ``play`` and ``arena`` share, under one name each."""
    parser.add_argument(
        "--sleight-of-hand",
        "--sleight",
        dest="sleight_of_hand",
        action="store_true",
        help="Deadwood Knock: the Sleight of Hand table option (palming, DK9)",
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=None, help="Deadwood Knock rounds (default 10)"
    )
    parser.add_argument(
        "--target",
        type=positive_int,
        default=None,
        help="Knock Rummy / Gin game total (default 100)",
    )
