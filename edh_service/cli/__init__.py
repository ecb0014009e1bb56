"""The two command-line programs, both reading the one settings table (config.py):

    validate.py   `edh-validate`: check decklist files in CI and pre-commit hooks, with
                  paths.py (PATH arguments, bounded), reading.py (one input's text),
                  store.py (the card store), render.py and printable.py (the four output
                  formats), results.py (Checked, exit codes)
    cards.py      `cards`: sync, import, refresh the bracket lists, show the store

Importing the package imports nothing else.

May import: edh_service's base modules (config, pipeline, decoding, first_start), api
(the report's JSON, for --format json), card_data and validator. Never web, serving or
the factory.
"""
