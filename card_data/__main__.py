"""`python -m card_data` is no program: card_data is a library. The card-data commands
(sync, import, brackets, status) are the `cards` command, which reads the service's
settings table and so lives in the service package (edh_service/cli/cards.py): say so in
one line and exit 2, as for any usage error.
"""

import sys

print("card_data is a library: run `cards` (or `python -m edh_service.cli.cards`) for sync, import, "
      "brackets and status", file=sys.stderr)
sys.exit(2)
