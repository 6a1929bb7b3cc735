"""House-rule profiles for the studio: the data folder, checking text, the books.

The data folder is the only place the server reads or writes files: profiles
are saved as ``profiles/NAME.yaml`` in it. A profile's ``extends:`` may name a
bundled profile or a profile saved there (``NAME.yaml``), never another path,
and the same holds for every profile along its chain, so no request can make
the server read a file elsewhere. Profile text goes through the library's own
loader, with its limits (size, depth, no aliases).
"""

from __future__ import annotations

import os
import re
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta import CanastaError, Variant, VariantError, check_variant, load_variant, variant_names
from canasta.check.profile import compose_text, extends_of, option_positions
from canasta.limits import MAX_PROFILE_BYTES
from canasta.rulebook import describe, describe_diff, quick_reference
from canasta.variant.loading import MAX_EXTENDS, bundled_file, parse_variant

__all__ = [
    "NAME",
    "Checked",
    "DataFolder",
    "book_html",
    "check_text",
    "default_data_dir",
    "diff_html",
    "positions",
    "sheet_html",
]

#: A saved profile's name: letters, digits, ``-`` and ``_``, up to 64.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_FILE = re.compile(r"([A-Za-z0-9][A-Za-z0-9_-]{0,63})\.ya?ml")
_PLACE = "<string>"
_PROBLEM = re.compile(r"^(?:.*?):(\d+):(\d+): (.*)$", re.S)


def default_data_dir() -> Path:
    """The per-user data folder: ``$XDG_DATA_HOME/canasta`` (``~/.local/share/canasta``),
    ``%APPDATA%\\canasta`` on Windows, ``~/Library/Application Support/canasta`` on macOS."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "canasta"


def positions(text: str) -> dict[str, tuple[int, int]]:
    """Each dotted option path of profile ``text`` (``deal.hand_size``, ``opening.round_table[1]``)
    with its (line, column)."""
    return option_positions(compose_text(text))


def _extends(text: str) -> tuple[str, int] | None:
    found = extends_of(compose_text(text))
    return None if found is None else (found[0], found[1][0])


@dataclass
class Checked:
    """What checking a profile's text found.

    Attributes:
        variant: the variant, when the text loads.
        problems: the loader's problems: ``{"line", "column", "message"}`` (line 0: none known).
        findings: the checker's findings: ``{"code", "severity", "path", "message", "hint", "line"}``.
        base: the profile it extends (a bundled name or ``NAME.yaml``), if any.
    """

    variant: Variant | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    base: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As the API answers it."""
        v = self.variant
        return {
            "ok": v is not None and not any(f["severity"] == "error" for f in self.findings),
            "loads": v is not None,
            "name": v.name if v else None,
            "title": v.title if v else None,
            "base": self.base,
            "problems": self.problems,
            "findings": self.findings,
        }


def _problem(text: str) -> dict[str, Any]:
    m = _PROBLEM.match(text)
    if m:
        return {"line": int(m.group(1)), "column": int(m.group(2)), "message": m.group(3)}
    message = text.split(": ", 1)[1] if text.startswith(_PLACE + ":") else text
    return {"line": 0, "column": 0, "message": message}


class DataFolder:
    """The data folder: saved profiles (``profiles/``) and the database (``canasta.sqlite3``).

    Created on first use.
    """

    def __init__(self, root: Path) -> None:
        self.root = root.expanduser().resolve()
        self.profiles = self.root / "profiles"
        self.profiles.mkdir(parents=True, exist_ok=True)

    @property
    def database(self) -> Path:
        """The SQLite file of the tables."""
        return self.root / "canasta.sqlite3"

    def saved_names(self) -> list[str]:
        """The names of the saved profiles, sorted."""
        return sorted(p.stem for p in self.profiles.glob("*.yaml")
                      if p.is_file() and not p.is_symlink() and NAME.fullmatch(p.stem))

    def saved_path(self, name: str) -> Path:
        """The file of saved profile ``name``.

        Raises:
            CanastaError: not a profile name.
        """
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise CanastaError("a profile name is 1 to 64 letters, digits, '-' or '_', starting with a letter or digit")
        return self.profiles / f"{name}.yaml"

    def read_saved(self, name: str) -> str:
        """The text of saved profile ``name``.

        Raises:
            CanastaError: no such profile, or it is not a regular file of at most the profile limit.
        """
        path = self.saved_path(name)
        if not path.is_file() or path.is_symlink():
            raise CanastaError(f"no saved profile {name!r}")
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise CanastaError(f"saved profile {name!r} is larger than {MAX_PROFILE_BYTES} bytes")
        return path.read_text(encoding="utf-8", errors="replace")

    def profile_text(self, name: str) -> str:
        """The text of a bundled or saved profile (a saved one is ``saved:NAME``)."""
        if name.startswith("saved:"):
            return self.read_saved(name[6:])
        if name not in variant_names():
            raise CanastaError(f"unknown bundled profile {name[:64]!r}")
        return bundled_file(name)[0].read_text(encoding="utf-8")

    def save(self, name: str, text: str) -> Path:
        """Save profile ``text`` as ``name`` (replacing it), after checking that it loads.

        Raises:
            VariantError: the text is not a profile this server loads.
        """
        path = self.saved_path(name)
        if self.load(text).variant is None:
            raise VariantError("the profile does not load; fix its problems before saving")
        tmp = path.with_name(f".{name}.{secrets.token_hex(4)}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        return path

    def _guard(self, text: str) -> dict[str, Any] | None:
        """A problem if ``text``'s chain of ``extends`` leaves the bundled and saved profiles."""
        seen: set[str] = set()
        for _ in range(MAX_EXTENDS + 1):
            found = _extends(text)
            if found is None:
                return None
            target, line = found
            if target in variant_names():
                return None
            m = _FILE.fullmatch(target)
            if m is None or m.group(1) not in self.saved_names():
                return {"line": line, "column": 1, "message":
                        f"extends: {target[:80]!r} is not a bundled profile ({', '.join(variant_names())}) "
                        "nor a profile saved here (NAME.yaml)"}
            if target in seen:
                return None  # a cycle: the loader reports it
            seen.add(target)
            try:
                text = self.read_saved(m.group(1))
            except (CanastaError, OSError):
                return None
        return None

    def load(self, text: str) -> Checked:
        """Load profile ``text`` as the loader does, its ``extends`` kept to bundled and saved profiles."""
        out = Checked()
        if not isinstance(text, str):
            out.problems.append({"line": 0, "column": 0, "message": "expected the profile as text"})
            return out
        bad = self._guard(text)
        if bad is not None:
            out.problems.append(bad)
            return out
        found = _extends(text)
        out.base = found[0] if found else None
        try:
            if found is None or found[0] in variant_names():
                out.variant = parse_variant(text)
            else:
                out.variant = self._load_beside_saved(text)
        except VariantError as exc:
            out.problems = [_problem(p) for p in exc.problems]
            if exc.total > len(exc.problems):
                out.problems.append({"line": 0, "column": 0,
                                     "message": f"... and {exc.total - len(exc.problems)} more problems"})
        return out

    def _load_beside_saved(self, text: str) -> Variant:
        """Load ``text`` as a file of the profiles folder, so ``extends: NAME.yaml`` finds its base."""
        if len(text.encode("utf-8", "surrogatepass")) > MAX_PROFILE_BYTES:
            return parse_variant(text)  # the loader's own refusal, worded for text
        tmp = self.profiles / f".check-{secrets.token_hex(6)}.yaml"
        tmp.write_text(text, encoding="utf-8")
        try:
            return load_variant(tmp)
        except VariantError as exc:
            problems = [p.replace(str(tmp), _PLACE) for p in exc.problems]
            raise VariantError.of(problems, exc.total) from None
        finally:
            tmp.unlink(missing_ok=True)

    def base_variant(self, checked: Checked) -> Variant:
        """The variant a profile is compared with: the one it extends, else classic."""
        base = checked.base
        if base and base in variant_names():
            return load_variant(base)
        m = _FILE.fullmatch(base or "")
        if m:
            loaded = self.load(self.read_saved(m.group(1))).variant
            if loaded is not None:
                return loaded
        return load_variant("classic")


def check_text(folder: DataFolder, text: str) -> Checked:
    """Load ``text`` and, when it loads, run the conflict checker; each finding gets its line."""
    checked = folder.load(text)
    if checked.variant is None:
        return checked
    where = positions(text)
    for d in check_variant(checked.variant):
        line = next((where[p][0] for p in d.paths if p in where), 0)
        checked.findings.append({"code": d.code, "severity": d.severity, "path": d.path,
                                 "message": d.message, "hint": d.hint, "line": line})
    return checked


def book_html(variant: Variant) -> str:
    """The rule book as a printable page, with card faces."""
    return describe(variant, "html", standalone=True)


def diff_html(variant: Variant, base: Variant) -> str:
    """How ``variant`` differs from ``base``, as a page."""
    return describe_diff(variant, base, "html", standalone=True)


def sheet_html(variant: Variant) -> str:
    """The one-page quick-reference sheet."""
    return quick_reference(variant)
