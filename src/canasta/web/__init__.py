"""``canasta serve``: the studio, the experiments and the card table in a browser.

Needs the optional extra ``canasta[web]`` (Starlette, uvicorn, Jinja2). The
package sits above the rest of the library and uses its public API; nothing
else in the library imports it. :func:`~canasta.web.app.create_app` builds the
ASGI application, :func:`~canasta.web.app.serve` runs it.
"""

from __future__ import annotations

from canasta.web.app import create_app, serve

__all__ = ["create_app", "serve"]
