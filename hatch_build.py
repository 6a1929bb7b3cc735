"""Build hook: optionally compile the game engine with mypyc.

``CANASTA_COMPILE=1 python -m pip install .`` (or ``python -m build --wheel``
with the variable set) compiles the modules of the engine package
``canasta/engine`` into C extensions and ships them beside the Python source,
which they shadow at import. The engine then plays random hands about twice as fast (2026-12-03); its
behaviour is the same (CI runs the engine's tests against both, and compares
their play hand for hand: .ci/parity.py). Without the
variable, and for editable installs always, the package stays pure Python.

Compiling needs a C compiler and the Python headers; mypy (which brings mypyc)
and the packages it reads the engine's types from are fetched into the build
environment only when the variable is set.
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

#: The modules compiled: every module of the engine package, in one group so
#: that they call each other natively. Its callers stay Python, and so do
#: ``__init__`` (it only re-exports) and the modules of attrs value classes
#: (moves, states, score breakdowns, views): mypyc cannot build attrs classes
#: whose annotations name types imported only for type checking, nor attrs
#: subclasses of a plain base; they hold values, not rules. ``move_fields``
#: stays Python too: it reads fields of hand-built moves that may hold any
#: type, which compiled code reading an ``int`` field would refuse with a
#: TypeError before the check could name the field.
ENGINE = "canasta/engine"
PYTHON_ONLY = frozenset({"__init__.py", "moves.py", "move_fields.py", "state.py", "scoring.py", "view.py"})


def _compiled(src: Path) -> list[str]:
    return sorted(
        f"{ENGINE}/{p.name}" for p in (src / ENGINE).glob("*.py") if p.name not in PYTHON_ONLY
    )


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
            cmd = [sys.executable, "-m", "mypyc", *_compiled(work)]
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
