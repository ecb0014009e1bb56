"""The SQLite card store, one file built elsewhere and swapped in whole: the cards, their
name index, memos and metadata (cards), the small tables beside them (tables), the synced
lists' tables (list_tables) and the table of names printed in other languages (names_table).

May import: card_data's base modules (errors, settings, http, streams, convert) and
validator. Nothing else of card_data; never edh_service.
"""
