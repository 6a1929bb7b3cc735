"""The JSON API under ``/api/`` (see the "canasta serve" page of the documentation).

Every body is read with a size limit (:data:`MAX_BODY`); every refusal is a JSON
object ``{"error": message}`` with a status code: 400 a malformed request, 404
nothing there (or a seat link that opens nothing), 409 not now, 413 too large,
415 not sent as ``application/json``, 422 refused by the rules, 429 too many tables or experiments at once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from canasta import CanastaError, Variant, load_variant, variant_names
from canasta.web.pages import board_html
from canasta.web.profiles import DataFolder, book_html, check_text, diff_html, sheet_html
from canasta.web.tables import ApiError, Table, Tables

__all__ = ["MAX_BODY", "api_routes"]

#: Largest request body read, in bytes: a profile (256 KiB) and room for the JSON around it.
MAX_BODY = 300 * 1024
#: Seconds between two looks at a table while a seat's event stream waits.
POLL = 0.2
#: Seconds between two keep-alive comments on an idle event stream.
KEEP_ALIVE = 15.0


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    """The request's body as a JSON object, read up to ``limit`` bytes.

    Raises:
        ApiError: 415 when it is not sent as JSON, 413 when the body is larger,
            400 when it is not a JSON object.
    """
    # A page of another site may send a form or text/plain to this server from a
    # visitor's browser without asking; application/json it may not (the browser
    # asks first, and this server never says yes), so no other site can act here.
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "expected a JSON body, sent with content-type: application/json")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"the request body is larger than {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the request body is larger than {limit} bytes")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise ApiError(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def _state(request: Request) -> tuple[DataFolder, Tables, Any]:
    s = request.app.state
    return s.folder, s.tables, s.experiments


def _text(data: dict[str, Any], key: str = "profile") -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ApiError(400, f"{key}: expected the profile's YAML text")
    return value


def _variant_of(folder: DataFolder, data: dict[str, Any]) -> Variant:
    """The variant a request names: ``variant`` (bundled name or ``saved:NAME``) or ``profile`` text."""
    name = data.get("variant")
    if isinstance(name, str):
        if name in variant_names():
            return load_variant(name)
        if name.startswith("saved:"):
            data = {"profile": folder.read_saved(name[6:])}
        else:
            raise ApiError(404, f"unknown variant {name[:64]!r} (bundled: {', '.join(variant_names())})")
    checked = folder.load(_text(data))
    if checked.variant is None:
        raise ApiError(422, "the profile does not load: " + "; ".join(
            (f"line {p['line']}: " if p["line"] else "") + p["message"] for p in checked.problems[:5]))
    return checked.variant


def _seed(data: dict[str, Any], default: int | None) -> int | None:
    """The request's ``seed``: a whole number from 0 to 2**63 - 1, or ``default`` when absent."""
    seed = data.get("seed", default)
    if seed is None:
        return None
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 63:
        raise ApiError(400, "seed: expected a whole number from 0 to 2**63 - 1")
    return seed


def _base_of(folder: DataFolder, data: dict[str, Any]) -> Variant:
    """The variant a request compares with: ``base`` if named, else what the profile extends, else classic."""
    base_name = data.get("base")
    if isinstance(base_name, str) and base_name:
        return _variant_of(folder, {"variant": base_name})
    if "profile" in data:
        return folder.base_variant(folder.load(_text(data)))
    return load_variant("classic")


async def variants(request: Request) -> Response:
    """GET /api/variants: the bundled profiles (name, title) and the saved ones."""
    folder, _, _ = _state(request)
    bundled = [{"name": n, "title": load_variant(n).title} for n in variant_names()]
    return JSONResponse({"bundled": bundled, "saved": folder.saved_names()})


async def profile_text(request: Request) -> Response:
    """GET /api/profiles/{name}: a bundled (``classic``) or saved (``saved:NAME``) profile's text."""
    folder, _, _ = _state(request)
    name = request.path_params["name"]
    try:
        text = folder.profile_text(name)
    except CanastaError as exc:
        raise ApiError(404, str(exc)) from None
    if request.query_params.get("download"):
        stem = name.removeprefix("saved:")
        return PlainTextResponse(text, media_type="application/yaml",
                                 headers={"content-disposition": f'attachment; filename="{stem}.yaml"'})
    return JSONResponse({"name": name, "profile": text})


async def save_profile(request: Request) -> Response:
    """POST /api/profiles: save ``{"name", "profile"}`` to the data folder."""
    folder, _, _ = _state(request)
    data = await read_json(request)
    name, text = data.get("name"), _text(data)
    if not isinstance(name, str):
        raise ApiError(400, "name: expected a profile name")
    checked = await run_in_threadpool(folder.load, text)
    if checked.variant is None:
        return JSONResponse({"error": "the profile does not load; fix its problems before saving",
                             **checked.to_dict()}, status_code=422)
    path = await run_in_threadpool(folder.save, name, text)
    return JSONResponse({"name": f"saved:{name}", "file": path.name}, status_code=201)


async def check(request: Request) -> Response:
    """POST /api/check: ``{"profile": text}`` -> the loader's problems and the checker's findings."""
    folder, _, _ = _state(request)
    text = _text(await read_json(request))
    checked = await run_in_threadpool(check_text, folder, text)
    return JSONResponse(checked.to_dict())


async def _book(request: Request, kind: str) -> Response:
    folder, _, _ = _state(request)
    data = await read_json(request)

    def render() -> str:
        variant = _variant_of(folder, data)
        if kind == "book":
            return book_html(variant)
        if kind == "sheet":
            return sheet_html(variant)
        return diff_html(variant, _base_of(folder, data))

    return JSONResponse({"html": await run_in_threadpool(render)})


async def book(request: Request) -> Response:
    """POST /api/book: ``{"profile": text}`` or ``{"variant": name}`` -> the rule book page."""
    return await _book(request, "book")


async def diff(request: Request) -> Response:
    """POST /api/diff: the rules that differ from ``base`` (default: what the profile extends)."""
    return await _book(request, "diff")


async def sheet(request: Request) -> Response:
    """POST /api/sheet: the quick-reference sheet."""
    return await _book(request, "sheet")


def _message(tables: Tables, table: Table, seat: int) -> dict[str, Any]:
    out = tables.message(table, seat)
    out["board"] = board_html(table, out)
    return out


async def create_table(request: Request) -> Response:
    """POST /api/tables: ``{"variant" | "profile", "seats": [...], "hands": 1 | null, "seed"?}``
    -> one link per person's seat."""
    folder, tables, _ = _state(request)
    data = await read_json(request)
    hands = data.get("hands", 1)
    seed = _seed(data, None)

    def create() -> tuple[Table, list[str | None]]:
        return tables.create(_variant_of(folder, data), data.get("seats", ()), hands, seed)

    table, tokens = await run_in_threadpool(create)
    seats = [{"seat": i, "kind": kind, "token": tokens[i],
              "link": f"/seat/{tokens[i]}" if tokens[i] else None}
             for i, kind in enumerate(table.seats)]
    return JSONResponse({"table": table.id, "variant": table.variant.name, "seats": seats},
                        status_code=201)


async def seat_view(request: Request) -> Response:
    """GET /api/seat/{token}: what that seat sees, its legal moves, the log and the scores."""
    _, tables, _ = _state(request)
    table, seat = tables.seat(request.path_params["token"])
    return JSONResponse(_message(tables, table, seat))


async def seat_move(request: Request) -> Response:
    """POST /api/seat/{token}/move: ``{"move": notation}`` or ``{"index": i}``; answered once stored."""
    _, tables, _ = _state(request)
    data = await read_json(request, 16 * 1024)
    token = request.path_params["token"]
    index = data.get("index")
    table = await run_in_threadpool(tables.move, token, data.get("move"), index)
    _, seat = tables.seat(token)
    return JSONResponse(_message(tables, table, seat))


async def seat_record(request: Request) -> Response:
    """GET /api/seat/{token}/record: the game record so far, to download."""
    _, tables, _ = _state(request)
    table, _ = tables.seat(request.path_params["token"])
    text = await run_in_threadpool(table.record_text)
    return PlainTextResponse(text, headers={
        "content-disposition": f'attachment; filename="canasta-{table.id}.rec"'})


async def seat_events(request: Request) -> Response:
    """GET /api/seat/{token}/events: server-sent events, one per change of the table, until it is over."""
    _, tables, _ = _state(request)
    table, seat = tables.seat(request.path_params["token"])
    state = request.app.state
    if state.streams >= state.max_streams:
        raise ApiError(429, f"{state.max_streams} event streams are open, the most this server keeps")
    state.streams += 1  # the event loop's thread only: no lock needed

    async def events() -> AsyncIterator[str]:
        try:
            async for event in _events(request, tables, table, seat):
                yield event
        finally:
            state.streams -= 1

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"cache-control": "no-store"})


async def _events(request: Request, tables: Tables, table: Table, seat: int) -> AsyncIterator[str]:
    """The events of one seat: its message at each new version, keep-alives between."""
    last, idle = -1, 0.0
    while not await request.is_disconnected():
        if table.version != last:
            message = _message(tables, table, seat)
            last, idle = message["version"], 0.0
            yield f"data: {json.dumps(message)}\n\n"
            if message["over"]:
                return
        elif idle >= KEEP_ALIVE:
            idle = 0.0
            yield ": keep-alive\n\n"
        await asyncio.sleep(POLL)
        idle += POLL


async def start_experiment(request: Request) -> Response:
    """POST /api/experiments: ``{"profile" | "variant", "base"?, "games", "seed"?}`` -> its id, 202."""
    folder, _, runs = _state(request)
    data = await read_json(request)

    def variants_of() -> list[Variant]:
        house = _variant_of(folder, data)
        return [_base_of(folder, data), house]

    run = runs.start(await run_in_threadpool(variants_of), data.get("games", 20), _seed(data, 0) or 0)
    return JSONResponse(run.to_dict(), status_code=202)


async def experiment_status(request: Request) -> Response:
    """GET /api/experiments/{id}: progress, and the result once done."""
    _, _, runs = _state(request)
    run = runs.get(request.path_params["id"])
    if run is None:
        raise ApiError(404, "no such experiment")
    return JSONResponse(run.to_dict())


async def experiment_plot(request: Request) -> Response:
    """GET /api/experiments/{id}/plots/{name}: a plot as PNG."""
    _, _, runs = _state(request)
    run = runs.get(request.path_params["id"])
    png = run.plots.get(request.path_params["name"]) if run else None
    if png is None:
        raise ApiError(404, "no such plot")
    return Response(png, media_type="image/png")


def api_routes() -> list[Route]:
    """The routes of the API."""
    return [
        Route("/api/variants", variants),
        Route("/api/profiles", save_profile, methods=["POST"]),
        Route("/api/profiles/{name}", profile_text),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/book", book, methods=["POST"]),
        Route("/api/diff", diff, methods=["POST"]),
        Route("/api/sheet", sheet, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/seat/{token}", seat_view),
        Route("/api/seat/{token}/move", seat_move, methods=["POST"]),
        Route("/api/seat/{token}/record", seat_record),
        Route("/api/seat/{token}/events", seat_events),
        Route("/api/experiments", start_experiment, methods=["POST"]),
        Route("/api/experiments/{id}", experiment_status),
        Route("/api/experiments/{id}/plots/{name}", experiment_plot),
    ]
