"""`python -m weathering_tui.bench …`: the commands are listed in this package's docstring."""

import sys

from .game import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
