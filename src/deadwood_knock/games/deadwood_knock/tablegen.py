"""Builds the shipped Deadwood Knock hand table (``dk_table.bin``).

Run ``python -m deadwood_knock.games.deadwood_knock.tablegen`` after any change to the
evaluator's scoring; ``tests/test_dk_tables.py`` fails while the shipped file differs
from a fresh build.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from deadwood_knock.games.deadwood_knock import hand

__all__ = ["build_table", "main", "table_path"]


def build_table(max_cards: int = hand.TABLE_CARDS) -> dict[int, tuple[int, int, int, int, int]]:
    """Every row of ``max_cards``-card hands, computed from scratch."""
    return {tkey: hand.compute_row(tkey) for tkey in hand.table_keys(max_cards)}


def table_path() -> Path:
    return Path(hand.__file__).with_name(hand.TABLE_FILE)


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    out = Path(args[0]) if args else table_path()
    data = hand.encode_table(build_table())
    out.write_bytes(data)
    print(f"wrote {out} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
