"""Build hook: optionally compile the game engine with mypyc.

``CANASTA_COMPILE=1 python -m pip install .`` (or ``python -m build --wheel``
with the variable set) compiles the modules of the engine package
``canasta/engine`` and the bundled bots (``canasta/play/heuristics.py``) into C
extensions and ships them beside the Python source, which they shadow at
import. The engine then plays random hands about twice as fast (2026-12-03); its
behaviour is the same (CI runs the engine's tests against both, and compares
their play hand for hand: .ci/parity.py). Without the
variable, and for editable installs always, the package stays pure Python.

Compiling needs a C compiler and the Python headers; mypy (which brings mypyc)
and the packages it reads the engine's types from are fetched into the build
environment only when the variable is set. The optional extras (Ray, NumPy,
matplotlib, the learning-agent libraries) are not: mypyc runs on a copy of the
package with the ``[tool.mypy]`` settings of ``pyproject.toml`` written beside
it as ``mypy.ini``, whose overrides tell it not to look for them, so the
compiled build works in a fresh environment with nothing else installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

if sys.version_info >= (3, 11):
    import tomllib
else:  # hatchling depends on tomli before Python 3.11
    import tomli as tomllib

#: The modules compiled: every module of the engine package (views included)
#: and the bundled bots, in one group so that they call each other natively.
#: Their other callers stay Python, and so do ``__init__`` (it only
#: re-exports) and the modules of attrs value classes (moves, states, seat
#: views, score breakdowns): mypyc cannot build attrs classes whose
#: annotations name types imported only for type checking, nor attrs
#: subclasses of a plain base, and the engine's fast constructors of states
#: and views (``constructors``) give an instance its class after
#: filling it, which only Python classes allow; they hold values, not rules.
#: ``move_fields`` stays Python too: it reads fields of hand-built moves that
#: may hold any type, which compiled code reading an ``int`` field would
#: refuse with a TypeError before the check could name the field.
ENGINE = "canasta/engine"
PYTHON_ONLY = frozenset({"__init__.py", "moves.py", "move_fields.py", "state.py", "constructors.py", "scoring.py"})
#: Compiled beside the engine: the bots, which decide at every move of a simulation.
ALSO_COMPILED = ("canasta/play/heuristics.py",)


def _compiled(src: Path) -> list[str]:
    engine = [f"{ENGINE}/{p.name}" for p in (src / ENGINE).glob("*.py") if p.name not in PYTHON_ONLY]
    return sorted([*engine, *ALSO_COMPILED])


#: [tool.mypy] keys that name the source tree (mypyc is given its files, and
#: targets the running interpreter): left out of the copy's configuration.
NOT_CARRIED = frozenset({"files", "python_version", "mypy_path", "overrides"})


def _ini_value(value: Any) -> str:
    """A TOML value as mypy's INI configuration spells it."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def mypy_ini(pyproject: Path) -> str:
    """The ``[tool.mypy]`` settings of ``pyproject``, overrides included, as a mypy.ini text.

    mypyc runs in a temporary copy of the package, where no ``pyproject.toml``
    is found; without the overrides, an optional import such as ``import ray``
    fails the build wherever that extra is not installed.
    """
    with pyproject.open("rb") as f:
        config = tomllib.load(f).get("tool", {}).get("mypy", {})
    lines = ["[mypy]"]
    lines += [f"{k} = {_ini_value(v)}" for k, v in config.items() if k not in NOT_CARRIED]
    # one section per module: pyproject's overrides may name a module twice
    # (their settings add up), where a later INI section would replace an earlier
    per_module: dict[str, dict[str, Any]] = {}
    for override in config.get("overrides", []):
        modules = override["module"]
        for module in modules if isinstance(modules, list) else [modules]:
            per_module.setdefault(module, {}).update(
                (k, v) for k, v in override.items() if k != "module"
            )
    for module, settings in per_module.items():
        lines.append(f"\n[mypy-{module}]")
        lines += [f"{k} = {_ini_value(v)}" for k, v in settings.items()]
    return "\n".join(lines) + "\n"


def _wanted() -> bool:
    return os.environ.get("CANASTA_COMPILE", "").strip().lower() in ("1", "true", "yes")


class CompileEngine(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the engine package with mypyc when ``CANASTA_COMPILE`` is set."""

    def dependencies(self) -> list[str]:
        if not _wanted():
            return []
        # mypyc reads the types of everything the engine imports, and builds
        # the extension with setuptools
        return [
            "mypy>=1.10", "setuptools", "attrs>=23.1", "cattrs>=23.2", "PyYAML>=6.0", "types-PyYAML",
        ]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not _wanted() or self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        with tempfile.TemporaryDirectory(prefix="canasta-mypyc-") as tmp:
            work = Path(tmp)
            shutil.copytree(root / "src" / "canasta", work / "canasta")
            (work / "mypy.ini").write_text(mypy_ini(root / "pyproject.toml"), encoding="utf-8")
            cmd = [sys.executable, "-m", "mypyc", "--config-file", "mypy.ini", *_compiled(work)]
            self.app.display_info(f"compiling the engine: {' '.join(cmd)}")
            done = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(
                    f"mypyc failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
                )
            # one extension per compiled module, beside its source, and (for
            # several modules) one shared library of them all at the top
            built = sorted(p for p in work.rglob("*") if p.suffix in (".so", ".pyd") and "build" not in p.relative_to(work).parts)
            if not built:
                raise RuntimeError("mypyc reported success but left no extension module")
            out = root / "build" / "mypyc"
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            for lib in built:
                rel = lib.relative_to(work).as_posix()
                target = out / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(lib, target)
                build_data["force_include"][str(target)] = rel
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        # the extension files were copied into the wheel: drop the staging copies
        shutil.rmtree(Path(self.root) / "build" / "mypyc", ignore_errors=True)
