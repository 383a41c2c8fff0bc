"""Launch a real server process for the restart tests (with the toy game registered).

Usage: python dkserver_run.py PORT DATA_DIR DATABASE_URL
"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn

from deadwood_knock.games import register_game
from deadwood_knock.server import Settings, create_app

if __name__ == "__main__":
    from dkserver_toy_game import GAME

    register_game(GAME)  # the bot workers are handed it when they start
    port, data_dir, database_url = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    settings = Settings(
        port=port,
        data_dir=data_dir,
        database_url=database_url,
        bot_workers=1,
        bot_seconds=0.2,
        secret_key="test secret",
    )
    uvicorn.run(create_app(settings), host="127.0.0.1", port=port, access_log=False)
