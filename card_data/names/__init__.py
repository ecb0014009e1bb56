"""Card names printed in other languages: their keys (printed), the files they are read from
(sources), the table's refresh from Scryfall's all_cards or a local file (sync), and the
resolve step that reads the table (lookup). The table itself is store.names_table.

May import: card_data's base modules, store, coordination, scryfall, and validator. Never
lists, the facade (sync, repository) or edh_service.
"""
