"""The ``canasta`` command line (placeholder until the CLI issue lands)."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return the exit status."""
    return 0
