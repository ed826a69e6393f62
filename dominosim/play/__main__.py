"""``python -m dominosim.play``: see :func:`dominosim.play.main`."""

import sys

from dominosim.play import main

if __name__ == "__main__":
    sys.exit(main())
