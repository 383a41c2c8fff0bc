"""Assembling the FastAPI app: lifespan (migrations, bot pool, resume), middleware, errors."""

from __future__ import annotations

import base64
import gc
import hashlib
import logging
import os
import re
from collections.abc import AsyncIterator
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount
from starlette.types import Scope

from deadwood_knock import __version__
from deadwood_knock.persistence import Database
from deadwood_knock.server.apidocs import install_docs
from deadwood_knock.server.deps import Services
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.hub import Hub, RedisBridge
from deadwood_knock.server.logsafe import cap_secret_loggers
from deadwood_knock.server.mail import make_mailer
from deadwood_knock.server.matches import MatchService
from deadwood_knock.server.middleware import AccessLog, BodyLimit, SecurityHeaders
from deadwood_knock.server.openapi import install_openapi
from deadwood_knock.server.otp import OtpService
from deadwood_knock.server.ratelimit import make_rate_limiter
from deadwood_knock.server.routes import include_routes
from deadwood_knock.server.routes.matches import ActionFastPath
from deadwood_knock.server.settings import Settings
from deadwood_knock.server.trail import record_trail_result
from deadwood_knock.server.workers import Backend, ExecutorBackend, FairScheduler, PipeWorkers

log = logging.getLogger("deadwood_knock.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
NODE_MODULES = Path(os.environ.get("DEADWOOD_NODE_MODULES") or WEB_DIR.parents[2] / "node_modules")
#: Where an installed wheel carries the same npm packages (copied in at build time).
PACKAGED_VENDOR = WEB_DIR.parent / "web_vendor"


def npm_package(name: str) -> Path:
    """An npm package's folder: node_modules in a checkout, else the wheel's copy."""
    checkout = NODE_MODULES / name
    return checkout if checkout.is_dir() else PACKAGED_VENDOR / name


def inline_script_hashes(page: Path) -> tuple[str, ...]:
    """CSP hashes of the inline scripts (the import map) in the client's page."""
    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return ()
    bodies = re.findall(r"<script type=\"importmap\">(.*?)</script>", text, flags=re.S)
    return tuple(
        "'sha256-" + base64.b64encode(hashlib.sha256(b.encode()).digest()).decode() + "'"
        for b in bodies
    )


def server_secret(settings: Settings) -> bytes:
    """The key for one-time-code hashes: configured, or made once and kept in the data folder."""
    if settings.secret_key:
        return hashlib.sha256(settings.secret_key.encode()).digest()
    path = settings.data_dir / "secret.key"
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        key = os.urandom(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(key.hex())
        return key


def private_data_dir(path: Path) -> None:
    """The data folder (SQLite file with emails, the secret key) for its owner only."""
    if not path.is_dir():
        path.mkdir(mode=0o700, parents=True)


#: The methods a 405's Allow header may name.
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method the app's routes answer at this path. Starlette's 405 names only the
    first route that matched the path, or the web client's catch-all mount (GET)."""
    allowed = []
    for method in HTTP_METHODS:
        probe = {**scope, "method": method}
        for route in app.router.routes:
            if isinstance(route, Mount):
                continue  # the static mounts match every path
            if route.matches(probe)[0] is Match.FULL:
                allowed.append(method)
                break
    return allowed


#: The cyclic garbage collector's first threshold in a serving process (Python's default is
#: 700 allocations): a request's short-lived objects die by reference count before the
#: next collection instead of being promoted, then scanned again and again in the older
#: generations with every live match.
GC_THRESHOLD = 20_000


def tune_gc() -> None:
    """For a serving process, once started: what exists now (modules, the app, resumed
    matches) is kept out of every later collection (``gc.freeze``), and young objects are
    collected less often. Under load the collector took a quarter of the main process's
    CPU (444,000 tracked objects scanned by each full collection). Memory still held by
    cycles is freed as before, only later."""
    gc.collect()
    gc.freeze()
    _gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, gen1, gen2)


def build_app(settings: Settings, executor: Executor | None = None) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Again at start: a host (uvicorn) may have set up logging since the app was made.
        cap_secret_loggers()
        private_data_dir(settings.data_dir)
        db = Database(settings.effective_database_url)
        await db.migrate()
        backend: Backend
        if executor is None:
            workers = PipeWorkers(settings.bot_workers)
            workers.start()
            await workers.ready()
            backend = workers
        else:
            backend = ExecutorBackend(executor)
        scheduler = FairScheduler(backend)
        limiter = make_rate_limiter(settings.redis_url)
        hub = Hub()
        matches = MatchService(db, settings, scheduler, hub, limiter)
        matches.finish_hooks.append(record_trail_result)
        otp = OtpService(db, settings, server_secret(settings), make_mailer(settings), limiter)
        bridge = None
        if settings.redis_url:
            bridge = RedisBridge(settings.redis_url, hub, matches.remote_update)
            await bridge.start()
        matches.start()
        app.state.services = Services(settings, db, matches, otp, hub, limiter)
        resumed = await matches.resume_all()
        log.info("server ready: %d active matches resumed", resumed)
        if executor is None:
            # A serving process (it owns its bot workers), not an app sharing a test pool.
            tune_gc()
        try:
            yield
        finally:
            await otp.close()
            await matches.close()
            if bridge is not None:
                await bridge.close()
            await scheduler.close()
            await limiter.close()
            await db.dispose()

    cap_secret_loggers()
    app = FastAPI(
        title="Deadwood Knock server",
        version=__version__,
        description="Authoritative API for Deadwood Knock, Knock Rummy and Gin.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    include_routes(app)  # every router, and /art ahead of the web client's catch-all mount
    install_openapi(app)
    if settings.api_docs:
        install_docs(app, npm_package("swagger-ui-dist"))

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # Say what was wrong, without echoing the input back.
        problems = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
            for e in exc.errors()
        ]
        detail = "; ".join(f"{'.'.join(p['loc'][1:]) or 'body'}: {p['msg']}" for p in problems)
        body = {
            "detail": detail or "invalid request",
            "code": "invalid_request",
            "errors": problems,
        }
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(app, request.scope)) or "GET, HEAD"
        return JSONResponse(
            {"detail": str(exc.detail), "code": code},
            status_code=exc.status_code,
            headers=headers or None,
        )

    @app.exception_handler(Exception)
    async def server_error(_request: Request, exc: Exception) -> JSONResponse:
        # Still a bug to fix (the server logs its traceback), but a JSON answer.
        return JSONResponse({"detail": "internal server error", "code": "internal_error"}, 500)

    if WEB_DIR.is_dir():
        from fastapi.staticfiles import StaticFiles

        # The client's Preact and htm come from npm (`npm ci` at the repo root), served as-is.
        for package in ("preact", "htm"):
            if npm_package(package).is_dir():
                app.mount(
                    f"/vendor/{package}",
                    StaticFiles(directory=npm_package(package)),
                    name=f"vendor-{package}",
                )
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")

    # Innermost: the most frequent request skips the routing, not the middleware below.
    app.add_middleware(ActionFastPath)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
            max_age=600,
        )
    app.add_middleware(SecurityHeaders, script_hashes=inline_script_hashes(WEB_DIR / "index.html"))
    app.add_middleware(
        BodyLimit, limit=settings.max_body_bytes, timeout=settings.body_timeout_seconds
    )
    app.add_middleware(AccessLog)
    return app
