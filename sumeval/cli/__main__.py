"""``python -m sumeval.cli``: the ``sumeval`` command."""
from sumeval.cli import main

raise SystemExit(main())
