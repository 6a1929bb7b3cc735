"""``python -m canasta``: the command line, the same as the ``canasta`` script."""

from canasta.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
