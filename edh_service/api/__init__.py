"""The JSON API: the views (/api/v1/..., /healthz, /readyz), the request schemas and their
compiled loaders, the hand-built responses, the one error envelope, the OpenAPI document
and the JSON codec.

May import: edh_service's base modules (config, pipeline, card_extension, background_sync,
decoding, first_start), serving (observability, connections), card_data and validator.
Never web, cli or the factory.
"""
