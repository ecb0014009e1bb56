"""The paste-and-validate page: its view, the deck overview's charts, templates/ and static/.

May import: edh_service's base modules, serving, api (the page reads requests and shows
reports as the API does: its schemas, responses and error helpers), card_data and
validator. Never cli or the factory.
"""
