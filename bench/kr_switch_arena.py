"""The arena with constants of ``bots/search.py`` set (issue #17, the fifth Gin / Knock
Rummy pass): ``--set NAME=VALUE`` (an int, a float or ``None``; repeatable), then the
arena's own arguments after ``--``. Run it with ``--jobs 1``: the constants are set in this
process only, and worker processes would not see them.

    .venv/bin/python bench/kr_switch_arena.py --set NAME=5 -- --game knock-rummy \\
        --bots strong,strong-v1 --matches 16 --seed 700 --iterations 200 --jobs 1 --json \\
        --no-progress
"""

from __future__ import annotations

import argparse
import sys

from deadwood_knock import arena
from deadwood_knock.bots import search


def _value(text: str) -> int | float | None:
    if text == "None":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def set_switches(p: argparse.ArgumentParser, items: list[str]) -> list[str]:
    """Set each ``NAME=VALUE`` of ``--set`` on ``bots/search.py`` (in this process only);
    the names set. Also used by ``decision_time.py``."""
    names = []
    for item in items:
        name, _, text = item.partition("=")
        if not hasattr(search, name):
            p.error(f"bots/search.py has no {name}")
        setattr(search, name, _value(text))
        print(f"# search.{name} = {getattr(search, name)!r}", file=sys.stderr)
        names.append(name)
    return names


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv[:cut])
    rest = argv[cut + 1 :]
    if "--jobs" not in rest or rest[rest.index("--jobs") + 1] != "1":
        p.error("give the arena --jobs 1 (the constants are set in this process only)")
    set_switches(p, args.set)
    return arena.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
