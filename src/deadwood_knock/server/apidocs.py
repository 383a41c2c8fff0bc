"""Interactive API docs at ``/docs``: Swagger UI from the npm-installed ``swagger-ui-dist``
(package.json and its lockfile), served from here under the site's own CSP.

Nothing is loaded from another host and nothing runs inline: the page, Swagger UI's
bundle and stylesheet, and a small start-up script are all same-origin files. Without
the package (no ``npm ci``) or with ``api_docs`` off, ``/docs`` is simply absent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response

#: The files of the package the page uses (the rest of it is never served).
ASSETS = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
}

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - API docs</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""

_START = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
});
"""


def install_docs(app: FastAPI, package: Path) -> bool:
    """Add ``/docs`` if Swagger UI is installed at ``package``; whether it was added."""
    if not all((package / name).is_file() for name in ASSETS):
        return False
    page = _PAGE.format(title=app.title)

    @app.get("/docs", include_in_schema=False)
    async def docs_page() -> HTMLResponse:
        return HTMLResponse(page)

    @app.get("/docs/start.js", include_in_schema=False)
    async def docs_start() -> Response:
        return Response(_START, media_type="text/javascript")

    for name, media_type in ASSETS.items():
        app.add_api_route(
            f"/docs/{name}",
            _file(package / name, media_type),
            methods=["GET"],
            include_in_schema=False,
        )
    return True


def _file(path: Path, media_type: str) -> Callable[[], Awaitable[FileResponse]]:
    # A closure, not default arguments: FastAPI would read those from the query string.
    async def asset() -> FileResponse:
        return FileResponse(path, media_type=media_type)

    return asset
