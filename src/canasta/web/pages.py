"""The pages: server-rendered HTML (Jinja2) with a little plain JavaScript.

The table's board is rendered here from one seat's message
(:meth:`canasta.web.tables.Table.message`), so the page and the event stream
show the same thing and hold nothing the message does not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from canasta import CanastaError, __version__, load_variant, variant_names
from canasta.faces import CARD_STYLE, cards_html
from canasta.web.tables import PERSON, Table

__all__ = ["ENV", "board_html", "page_routes"]

HERE = Path(__file__).resolve().parent

#: The pages' templates (autoescaped).
ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(HERE / "templates")),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _faces(cards: list[str], wild: tuple[str, ...]) -> str:
    return cards_html(cards, wild) if cards else ""


def _seat_name(table: Table, seat: int, me: int) -> str:
    kind = table.seats[seat]
    who = "you" if seat == me else ("player" if kind == PERSON else f"{kind} bot")
    return f"seat {seat} ({who})"


def board_html(table: Table, message: dict[str, Any]) -> str:
    """The board of one seat's message as an HTML fragment (cards as faces)."""
    view = message["view"]
    wild = table.variant.wilds.ranks
    me = message["seat"]
    sides = table.variant.sides
    side_rows = []
    for i, seats in enumerate(sides):
        side_rows.append({
            "name": f"side {i}: " + ", ".join(_seat_name(table, s, me) for s in seats),
            "mine": me in seats,
            "score": view["scores"][i],
            "melds": [{"rank": m["rank"], "faces": _faces(m["cards"], wild), "count": len(m["cards"])}
                      for m in view["melds"][i]],
            "threes": _faces(view["red_threes"][i], wild),
            "opened": view["opened"][i],
        })
    others = [{"name": _seat_name(table, s, me), "cards": view["hand_sizes"][s],
               "foot": view["foot_sizes"][s] if view["foot_sizes"] else 0,
               "turn": view["current"] == s}
              for s in range(len(table.seats)) if s != me]
    pile = view["pile"]
    turn = view["turn"]
    context = {
        "m": message, "view": view, "sides": side_rows, "others": others,
        "hand": _faces(view["hand"], wild), "hand_count": len(view["hand"]),
        "pile_top": _faces(pile[-1:], wild), "pile_count": len(pile),
        "drawn": _faces(turn.get("drawn", []), wild),
        "pending": _faces(turn.get("pending", []), wild),
        "my_turn": bool(message["legal"]) and view["phase"] != "hand over",
        "turn_name": _seat_name(table, view["current"], me),
        "hand_ends": message["hand_ends"],
        "side_names": [f"side {i}" for i in range(len(sides))],
    }
    return ENV.get_template("board.html").render(context)


def _page(name: str, **context: Any) -> Response:
    html = ENV.get_template(name).render(card_style=CARD_STYLE, version=__version__, **context)
    return HTMLResponse(html, headers={"cache-control": "no-store"})


def _choices(request: Request) -> list[dict[str, Any]]:
    """The bundled and saved profiles, with their titles and seat counts (a saved one that no
    longer loads is left out)."""
    folder = request.app.state.folder
    out: list[dict[str, Any]] = []
    for n in variant_names():
        v = load_variant(n)
        out.append({"value": n, "label": f"{n}: {v.title}", "players": v.players.count})
    for n in folder.saved_names():
        try:
            saved = folder.load(folder.read_saved(n)).variant
        except CanastaError:
            saved = None
        if saved is not None:
            out.append({"value": f"saved:{n}", "label": f"{n} (saved): {saved.title}",
                        "players": saved.players.count})
    return out


async def index(request: Request) -> Response:
    """The start page."""
    return _page("index.html", choices=_choices(request))


async def studio(request: Request) -> Response:
    """The studio: edit a profile, see its problems, book, diff and sheet."""
    return _page("studio.html", choices=_choices(request))


async def experiment_page(request: Request) -> Response:
    """The experiment page: house rules against their base."""
    return _page("experiment.html", choices=_choices(request))


async def new_table(request: Request) -> Response:
    """The form that opens a table."""
    return _page("new_table.html", choices=_choices(request))


async def seat_page(request: Request) -> Response:
    """The table as one seat sees it (the token in the address is the only key)."""
    tables = request.app.state.tables
    table, seat = tables.seat(request.path_params["token"])
    message = tables.message(table, seat)
    return _page("table.html", board=board_html(table, message), m=message,
                 token=request.path_params["token"])


def page_routes() -> list[Route]:
    """The routes of the pages."""
    return [
        Route("/", index),
        Route("/studio", studio),
        Route("/experiment", experiment_page),
        Route("/table/new", new_table),
        Route("/seat/{token}", seat_page),
    ]
