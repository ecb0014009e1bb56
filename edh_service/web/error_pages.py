"""The page's own answer to an HTTP error outside the API (an unknown address, a method a
route does not take): a short page in the request's language with a way back to the form.
Under /api/ and on the health endpoints the JSON envelope (api.errors) answers instead."""

from __future__ import annotations

from flask import render_template
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from edh_service.api.errors import handle_http_exception, wants_json
from edh_service.web import texts


def titles(code: int) -> tuple[str, str]:
    """An error's title and what it means, in words a person reads."""
    if code == 404:
        return gettext("Page not found"), gettext("There is no page at this address.")
    if code == 405:
        return gettext("Not allowed here"), gettext("This address does not answer that kind of request.")
    if code >= 500:
        return gettext("Something went wrong"), gettext("The error is on our side. Please try again later.")
    return gettext("Error %(code)s", code=code), gettext("The request could not be answered.")


def error_page(error: HTTPException):
    """The error as a page (the API's envelope under /api/), with its status and headers."""
    if wants_json():
        return handle_http_exception(error)
    title, meaning = titles(error.code or 500)
    headers = [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]
    page = render_template("error.html", code=error.code, title=title, meaning=meaning,
                           page_language=texts.language(), language_menu=texts.language_menu())
    return page, error.code, headers
