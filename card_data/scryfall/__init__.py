"""Scryfall's side of the card data: the HTTP client (bulk-data objects, bulk downloads,
/cards/collection, searches), the bulk file read as records (records), a new store file
built from them and swapped in (building), and the bulk file several instances share
(shared_bulk). card_data.sync drives them.

May import: card_data's base modules (errors, settings, http, streams, convert), store,
coordination, and validator. Never lists, names, the facade (sync, repository) or edh_service.
"""
