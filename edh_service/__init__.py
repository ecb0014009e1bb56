"""The HTTP service: the JSON API, the page, schemas, OpenAPI, observability and the
card-data wiring, as one installed package."""

from edh_service.api import create_app

__all__ = ["create_app"]
