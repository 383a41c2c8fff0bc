"""API errors: every 4xx is JSON ``{"detail": <what was wrong>, "code": <stable key>}``."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse


class ApiError(Exception):
    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra
        self.headers: dict[str, str] = {}

    def body(self) -> dict[str, Any]:
        return {"detail": self.detail, "code": self.code, **self.extra}

    def response(self) -> JSONResponse:
        """The answer (the app's handler for ApiError, and the action's fast path)."""
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers or None)


def not_found(what: str = "match") -> ApiError:
    return ApiError(404, "not_found", f"{what} not found")


def conflict(code: str, detail: str, **extra: Any) -> ApiError:
    return ApiError(409, code, detail, **extra)


def invalid(code: str, detail: str, **extra: Any) -> ApiError:
    return ApiError(422, code, detail, **extra)
