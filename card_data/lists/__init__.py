"""The synced lists: mass land denial (Scryfall's tag search), two-card combos (Commander
Spellbook's export: spellbook) and the Pauper Commander commanders (Scryfall's search),
refreshed with the last good copy kept (refresh). Their tables are store.list_tables.

May import: card_data's base modules, store, coordination, scryfall, and validator. Never
names, the facade (sync, repository) or edh_service.
"""
