"""``python -m canasta``: the command line."""

from canasta.cli import main

raise SystemExit(main())
