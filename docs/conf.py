"""Sphinx configuration for the canasta documentation."""

from __future__ import annotations

import sys
from pathlib import Path

# Document the source tree even when the package is not installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
# Local extensions: rulebooks writes the variant pages at build time.
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

import attrs

import canasta

project = "canasta"
author = "The canasta developers"
copyright = "the canasta developers"
release = canasta.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "rulebooks",
]

exclude_patterns = ["_build"]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options: dict[str, object] = {}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections become :ivar: fields, so attrs fields that are also
# documented as members are not described twice.
napoleon_use_ivar = True
python_use_unqualified_type_names = True
# Furo: maintained, light and dark (it follows the reader's system setting and has
# a switch), readable on a phone. Wide tables scroll inside their own box.
html_theme = "furo"
html_title = f"canasta {release}"
# _generated/static/cards.css: the card faces' style, written by the rulebooks extension.
html_static_path = ["_static", "_generated/static"]
html_css_files = ["canasta.css", "cards.css"]

# The copy button leaves out the prompts of shell and doctest examples.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True

# The build runs with -n (nitpicky) and without network access, so there is no
# intersphinx: names from the standard library cannot be linked and are listed here.
nitpick_ignore_regex = [
    ("py:class", r"(collections\.abc|argparse|typing|os|random)\..*"),
    ("py:class", r"(Iterable|Sequence|Callable|Namespace|ArgumentParser)"),
    # Internal types that appear in public signatures; not part of the contract.
    ("py:class", r"(canasta\.engine\.(state|tables)\.)?(Turn|Rules|Engine)"),
    # Modules the reference does not document page by page.
    ("py:mod", r"canasta(\.\w+)+"),
    # Third-party types of the learning-agent adapters (docs/agents.rst).
    ("py:class", r"(numpy|np|npt|gymnasium|spaces|pettingzoo|pyspiel|open_spiel)(\..*)?"),
    ("py:class", r"(Array|Obs|NDArray|AECEnv|ParallelEnv)"),
    ("py:class", r"(canasta(\.\w+)*\.)?_\w+"),
    ("py:func", r"(pettingzoo|pyspiel)\..*"),
    ("py:mod", r"(pettingzoo|pyspiel|open_spiel)(\..*)?"),
    # The experiment report's and the Ray backend's optional dependencies (docs/tuning.rst).
    ("py:class", r"(matplotlib|ray|pathlib)(\..*)?"),
    ("py:class", r"(canasta\.play\.backends\.)?R"),
]

# The adapters' optional dependencies: documented without them when they are missing.
import importlib.util  # noqa: E402

autodoc_mock_imports = [
    name for name in ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "shimmy")
    if importlib.util.find_spec(name) is None
]


# Napoleon reads the first line of a property docstring as "type: text", so a
# sentence such as "Seats of each side: partners sit opposite" would become a
# type named "Seats of each side". Properties here take their type from the
# return annotation, so their docstrings are kept exactly as written.
_property_docstrings: dict[str, list[str]] = {}


def _keep_property_docstring(app, what, name, obj, options, lines):
    if what == "property":
        _property_docstrings[name] = list(lines)


def _restore_property_docstring(app, what, name, obj, options, lines):
    if what == "property" and name in _property_docstrings:
        lines[:] = _property_docstrings.pop(name)


# The rule-area classes keep each option's one-line description in the field's
# metadata["doc"]; list the options, with type and default, under the class.
def _list_options(app, what, name, obj, options, lines):
    if what != "class" or not attrs.has(obj):
        return
    rows = []
    for field in attrs.fields(obj):
        doc = field.metadata.get("doc")
        if doc is None:
            continue
        if attrs.has(type(field.default)):
            area = type(field.default)
            rows.append(
                f"* ``{field.name}``: {doc} See :class:`~{area.__module__}.{area.__qualname__}`."
            )
        else:
            rows.append(
                f"* ``{field.name}`` (``{field.type}``, default ``{field.default!r}``): {doc}"
            )
    if rows:
        lines.extend(["", "**Options**", "", *rows])


def _hide_variant_signature(app, what, name, obj, options, signature, return_annotation):
    # A Variant is built by load_variant(); its constructor lists every default
    # of every area and would fill a screen.
    if name == "canasta.Variant":
        return "", None
    return None


def setup(app):
    app.connect("autodoc-process-docstring", _keep_property_docstring, priority=100)
    app.connect("autodoc-process-docstring", _restore_property_docstring, priority=900)
    app.connect("autodoc-process-docstring", _list_options, priority=950)
    app.connect("autodoc-process-signature", _hide_variant_signature)
