"""`edh-validate` at the repository root (`python cli.py PATH...`), like app.py for the
service: the program itself is edh_service/cli/validate.py (the installed console script
runs it too); edh_service/cli/ holds its parts and the `cards` command.
"""

import sys

from edh_service.cli.validate import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
