"""`python -m card_data ...`: the same commands as the `cards` console script."""

import sys

from card_data.cli import main

sys.exit(main())
