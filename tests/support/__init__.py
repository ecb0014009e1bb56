"""Helpers the tests share (servers, apps, factories, runners, measurements): no test here.

Each module is imported by name (`from tests.support.scryfall_server import ...`); importing
the package imports nothing else.
"""
