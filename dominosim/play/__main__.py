"""``python -m dominosim.play``: see :func:`dominosim.interactive.main`."""

import sys

from ..interactive import main

if __name__ == "__main__":
    sys.exit(main())
