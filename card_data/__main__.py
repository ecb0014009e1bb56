"""`python -m card_data ...`: the same commands as the `cards` console script.

An entry point, not part of the library: the command reads the service's settings table
(edh_service/cli/cards.py), which card_data itself never imports.
"""

import sys

from edh_service.cli.cards import main

sys.exit(main())
