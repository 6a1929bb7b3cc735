"""The application: routes, error answers, the data folder, and :func:`serve`."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from canasta import CanastaError
from canasta.web.api import api_routes
from canasta.web.experiments import Experiments
from canasta.web.pages import ENV, HERE, page_routes
from canasta.web.profiles import DataFolder, default_data_dir
from canasta.web.store import Store
from canasta.web.tables import ApiError, Tables

__all__ = ["create_app", "serve"]


def _error(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    page = ENV.get_template("error.html").render(status=status, message=message)
    return HTMLResponse(page, status_code=status)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error(request, exc.status, exc.message)


async def _library_error(request: Request, exc: Exception) -> Response:
    # a refusal of the library (a profile that does not load, a bad name): the client's mistake
    return _error(request, 400, str(exc))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(request, exc.status_code, str(exc.detail))


async def _internal_error(request: Request, exc: Exception) -> Response:
    return _error(request, 500, f"internal error: {type(exc).__name__}")


def create_app(data: str | os.PathLike[str] | None = None, *, max_tables: int = 32,
               max_experiments: int = 2, max_games: int = 200, max_streams: int = 256,
               hosts: list[str] | None = None) -> Starlette:
    """The web application (ASGI), its tables restored from the data folder.

    Args:
        data: the data folder (default :func:`~canasta.web.profiles.default_data_dir`),
            created if missing; the only place the server reads or writes files.
        max_tables: most tables running at once.
        max_experiments: most experiments running at once.
        max_games: most games per variant in one experiment.
        max_streams: most event streams (a browser at a table holds one) open at once.
        hosts: the host names requests may be addressed to (``None``: any). A server
            on this computer only answers ``localhost`` and its addresses, so that a
            site whose name is pointed at 127.0.0.1 cannot reach it (DNS rebinding).

    Returns:
        The Starlette application.
    """
    folder = DataFolder(Path(data) if data is not None else default_data_dir())
    store = Store(folder.database)
    tables = Tables(store, max_tables)
    restored = tables.restore()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    app = Starlette(
        routes=[*api_routes(), *page_routes(),
                Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")],
        exception_handlers={ApiError: _api_error, CanastaError: _library_error,
                            HTTPException: _http_error, Exception: _internal_error},
        lifespan=lifespan,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts or ["*"])],
    )
    app.state.folder = folder
    app.state.tables = tables
    app.state.experiments = Experiments(folder.root / "scratch", max_experiments, max_games)
    app.state.restored = restored
    app.state.streams = 0
    app.state.max_streams = max_streams
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, data: str | os.PathLike[str] | None = None) -> None:
    """Run the server until interrupted (``canasta serve``)."""
    import uvicorn

    loopback = host in ("127.0.0.1", "localhost", "::1")
    app = create_app(data, hosts=["127.0.0.1", "localhost", "[::1]", "::1"] if loopback else None)
    folder = app.state.folder
    print(f"canasta serve: data folder {folder.root}; {app.state.restored} running tables restored")
    print(f"canasta serve: open http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
