"""``python -m deadwood_knock.server [--host H] [--port P] [--data-dir D] [--database-url U]``."""

from __future__ import annotations

import argparse

from deadwood_knock.server import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="deadwood_knock.server", description="Run the game server"
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    serve(host=args.host, port=args.port, data_dir=args.data_dir, database_url=args.database_url)


if __name__ == "__main__":
    main()
