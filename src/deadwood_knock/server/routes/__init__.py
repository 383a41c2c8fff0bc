"""One router per area of the API. Each imports its dependencies from :mod:`..deps` and
its work from the services (matches, trail, OTP); none imports another router."""

from __future__ import annotations

from fastapi import FastAPI

from deadwood_knock.server.routes import (
    backup,
    catalogue,
    devices,
    matches,
    players,
    records,
    socket,
    trail,
)
from deadwood_knock.server.routes.games import games_router

#: In the order their paths are matched (the trail's /art mount comes after them all,
#: ahead of the web client's catch-all).
ROUTERS = (
    catalogue.router,
    games_router,
    players.router,
    backup.router,
    matches.router,
    socket.router,
    devices.router,
    records.router,
    trail.router,
)


def include_routes(app: FastAPI) -> None:
    for router in ROUTERS:
        app.include_router(router)
    trail.install_art(app)
