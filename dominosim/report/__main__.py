"""``python -m dominosim.report``: regenerate the reports in ``reports/``."""

from .build import cli

if __name__ == "__main__":
    raise SystemExit(cli())
