"""The OpenAPI document, made exact: the answers of each route, its error statuses, one
error body for every 4xx/5xx, and the bearer scheme.

FastAPI documents each route's parameters and bodies from the code; this module adds
what the code does not say: which statuses a route can answer (by rule, and by the
table below for the ones only the route's logic knows), the shape of the success
bodies, and the error body. ``tests/server/test_server_schema.py`` runs schemathesis
against the running app, so the document and the server cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, TypeAdapter

from deadwood_knock.server.answers import (
    CodeSent,
    DeviceList,
    Health,
    HintAnswer,
    MatchCreated,
    MatchList,
    MatchView,
    NewPlayerAnswer,
    Profile,
    Revoked,
)


class _Open(BaseModel):
    # Answers may grow new fields; the document lists the ones a client can rely on.
    model_config = ConfigDict(extra="allow")


class FieldProblem(BaseModel):
    loc: list[str]
    msg: str


class Error(_Open):
    """Every error: what was wrong in words, and a stable key to branch on."""

    detail: str
    code: str
    #: Invalid input only: each problem and where it was.
    errors: list[FieldProblem] | None = None


#: (method, path) -> the type of its success answer (:mod:`.answers`, the same types the
#: routes are checked against).
ANSWERS: dict[tuple[str, str], type[Any]] = {
    ("get", "/api/health"): Health,
    ("post", "/api/players"): NewPlayerAnswer,
    ("get", "/api/players/me"): Profile,
    ("patch", "/api/players/me"): Profile,
    ("post", "/api/players/me/restart-progress"): Profile,
    ("post", "/api/backup/link"): CodeSent,
    ("post", "/api/backup/link/verify"): Profile,
    ("post", "/api/backup/restore"): CodeSent,
    ("post", "/api/backup/restore/verify"): NewPlayerAnswer,
    ("post", "/api/matches"): MatchCreated,
    ("get", "/api/matches"): MatchList,
    ("get", "/api/matches/{match_id}"): MatchView,
    ("get", "/api/matches/{match_id}/hint"): HintAnswer,
    ("post", "/api/matches/{match_id}/actions"): MatchView,
    ("post", "/api/matches/{match_id}/forfeit"): MatchView,
    ("get", "/api/players/me/devices"): DeviceList,
    ("delete", "/api/players/me/devices/{device_id}"): Revoked,
    ("post", "/api/players/me/devices/sign-out-others"): Revoked,
}

#: Statuses only a route's own logic can answer (the rules below cover the rest).
EXTRA_ERRORS: dict[tuple[str, str], tuple[int, ...]] = {
    ("post", "/api/players"): (429,),
    ("post", "/api/backup/link"): (429, 503),
    ("post", "/api/backup/restore"): (429, 503),
    ("post", "/api/backup/link/verify"): (400, 429),
    ("post", "/api/backup/restore/verify"): (400, 429),
    ("post", "/api/matches"): (404, 409),
    ("get", "/api/matches/{match_id}/hint"): (409, 503),
    ("post", "/api/matches/{match_id}/actions"): (409,),
    ("post", "/api/matches/{match_id}/forfeit"): (409,),
    ("post", "/api/progress/restart"): (400,),
}

_WORDS = {
    400: "Bad request (the detail says why)",
    401: "No valid bearer token",
    404: "Not found (or not yours)",
    408: "The request body was not sent in time",
    409: "Conflict with the current state (stale version, not your turn, finished)",
    413: "The request body is too large",
    422: "Invalid input (the detail and errors say what)",
    429: "Rate limited; see Retry-After",
    503: "Temporarily unavailable; try later",
}


def _errors_for(method: str, path: str, operation: dict[str, Any]) -> set[int]:
    statuses = set(EXTRA_ERRORS.get((method, path), ()))
    if operation.get("security"):
        statuses.add(401)
    if operation.get("parameters") or "requestBody" in operation:
        statuses.add(422)
    if "{" in path:
        statuses.add(404)
    if "requestBody" in operation:
        statuses |= {400, 408, 413}  # bad Content-Length, slow body, too large
    return statuses


def build_openapi(app: FastAPI) -> dict[str, Any]:
    schema = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.routes,
    )
    models: list[type[Any]] = [Error, *dict.fromkeys(ANSWERS.values())]
    _, defs = TypeAdapter.json_schemas(
        [(m.__name__, "serialization", TypeAdapter(m)) for m in models],
        ref_template="#/components/schemas/{model}",
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    components.update(defs.get("$defs", {}))
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            model = ANSWERS.get((method, path))
            for key, answer in responses.items():
                if model is not None and key.startswith("2"):
                    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
                    answer["content"] = {"application/json": {"schema": ref}}
            for status in sorted(_errors_for(method, path, operation)):
                responses[str(status)] = {
                    "description": _WORDS[status],
                    "content": {"application/json": {"schema": error_ref}},
                }
                if status in (429, 503):
                    responses[str(status)]["headers"] = {
                        "Retry-After": {
                            "description": "seconds to wait",
                            "schema": {"type": "string", "pattern": "^[0-9]+$"},
                        }
                    }
    return schema


def install_openapi(app: FastAPI) -> None:
    """Serve :func:`build_openapi` at ``/openapi.json`` (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
