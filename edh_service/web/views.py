"""The paste-and-validate page at `/`: a plain HTML form that works without JavaScript.

The view reads the pasted text (or an uploaded file), calls `pipeline.validate_text` and
renders the Report server-side. `static/app.js` enhances the same page: it posts to
`/api/v1/validate` and renders the JSON without a reload. No rule logic lives here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext, ngettext
from marshmallow import ValidationError
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from card_data import CardDataError, CardDataUnavailable
from card_data.errors import DeckSourceError
from edh_service import card_extension, deck_urls, pipeline
from edh_service.i18n import DEFAULT, supported
from edh_service.i18n.app import COOKIE, renderer, request_language
from edh_service.web import charts, texts
from edh_service.web.error_pages import error_page
from edh_service.web.script_texts import script_texts
from edh_service.web.forms import api_fields, describe_errors, field_not_in_format, read_form
from edh_service.api import responses, schemas
from edh_service.api.errors import close_stopped_body, deck_source_error
from edh_service.api.request_loading import loader_for, trimmed
from edh_service.api.views import house_rules_of
from edh_service.house_profiles import profiles_in
from edh_service.house_rules import HouseRulesError
from edh_service.pipeline import Translated
from validator.brackets import BRACKET_NAMES
from validator.decklist import Designation
from validator.messages import Text
from validator.engine import FormatStatus
from validator.formats import FORMATS as GAME_FORMATS, FieldNotInFormat, UnknownFormat
from validator.parse import EXTENSIONS, FORMATS, DecklistError, split_lines
from validator.violations import Severity, Violation

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static")

# Everything the page loads comes from this origin: no inline script or style, no CDN,
# and nobody may frame it (clickjacking). `form-action 'self'` keeps the form honest.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        f"img-src 'self' {responses.IMAGE_HOST}",  # card previews: Scryfall's image CDN only
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Card links go to Scryfall; the submitted list must not leak through a Referer.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate CSP 2
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}

VALIDATE_SCHEMA = schemas.ValidateRequestSchema()  # stateless, safe to share between requests
FORMAT_BY_KEY = {f.key: f for f in GAME_FORMATS}  # the template names the format a report was judged in
# The file chooser offers every file the parser reads (.xml: MTGO and Cockatrice saved so).
DECKFILE_ACCEPT = ",".join([*dict.fromkeys(ext for exts in EXTENSIONS.values() for ext in exts), ".xml", "text/plain"])
# How "In every format" shows each status: its own mark (app.css), words (the catalog's) and
# style, so a format the card data cannot judge never reads as legal (app.js says the same words).
FORMAT_STATUSES = {
    FormatStatus.LEGAL: {"css": "format-legal", "words": texts.N_("legal")},
    FormatStatus.NOT_LEGAL: {"css": "format-illegal", "words": texts.N_("not legal")},
    FormatStatus.UNKNOWN: {"css": "format-unknown", "words": texts.N_("unknown (the card data can't say)")},
}
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60  # the menu's choice is kept a year
# Bidirectional controls: embeddings and overrides (U+202A-202E, closed by U+202C) and
# isolates (U+2066-2068, closed by U+2069), plus the marks. A typed name holding an override
# reversed the rest of the message quoting it ("Did you mean ..." read backwards).
EMBEDDINGS = re.compile("[\u202a\u202b\u202d\u202e]")
ISOLATES = re.compile("[\u2066\u2067\u2068]")
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class Line:
    """One line of the submitted text as the listing shows it, with its marks."""

    number: int
    text: str
    severity: str | None = None  # "error" beats "warning" when both touch the line
    codes: tuple[str, ...] = ()
    translated: tuple = ()  # (English name, language name) of a name the line wrote in another language


@bp.after_app_request
def add_security_headers(response):
    """Strict headers on the page and its assets (the app's `static` route serves the
    same folder as this blueprint's, so it gets them too; other routes are left alone)."""
    served = request._get_current_object()  # type: ignore[attr-defined]  # one look-up through the context proxy
    blueprint, endpoint = served.blueprint, served.endpoint
    if blueprint != bp.name and endpoint != "static":
        return response
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if blueprint == bp.name and endpoint != "web.static":
        # The page echoes a decklist back; keep it out of shared caches and history.
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/")
def index():
    """The empty form; `?lang=` (the language menu) also sets the cookie that keeps the choice."""
    response = current_app.make_response(render_page())
    chosen = supported(request.args.get("lang"))
    if chosen is not None:
        response.set_cookie(COOKIE, chosen, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax",
                            secure=request.is_secure, httponly=True)
    return response


@bp.post("/")
def submit():
    """The no-JavaScript path: validate the posted list and render the verdict."""
    try:
        form = read_form()
    except RequestEntityTooLarge:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return render_page(error=too_large_message(limit)), 413
    if not form["text"].strip():
        return render_page(form=form, error=gettext("Paste a decklist or choose a file first.")), 422
    try:
        # The API's own schema and loading: the form gets exactly the API's bounds and field
        # rules (a list over its bound refused by its length), and as few messages.
        data = loader_for(VALIDATE_SCHEMA).load(api_fields(form))
    except ValidationError as error:
        return render_page(form=form, error=describe_errors(trimmed(error.messages))), 422
    except HouseRulesError as error:  # the rules box, or a profile chosen beside it
        return render_page(form=form, error=error_text(error)), 422
    return validate_and_render(form, data)


# Addresses no route answers (and methods a route does not take) anywhere in the app: the page's
# own error page, or the API's envelope under /api/ (error_pages.error_page decides).
bp.app_errorhandler(404)(error_page)
bp.app_errorhandler(405)(error_page)


@bp.errorhandler(Exception)
def unexpected_error(error):
    """A bug while validating: log it and answer the page (with the list kept), not a bare 500."""
    if isinstance(error, HTTPException):
        if error.code == 429 and request.method == "POST":
            return too_many_requests(error)  # the rate limit: keep the list, say when to come back
        if error.code == 413 and request.method == "POST":  # a streamed body over the limit
            return render_page(error=too_large_message(current_app.config.get("MAX_CONTENT_LENGTH"))), 413
        if isinstance(error, ClientDisconnected):  # the body stopped arriving (CLIENT_TIMEOUT)
            return render_page(error=close_stopped_body()), 400
        return error_page(error)  # 404, 405...: said in the page's language
    current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
    try:
        form = read_form()
    except Exception:  # noqa: BLE001 - the body itself may be the problem
        form = None
    message = gettext("Something went wrong on our side and was logged. Please try again later.")
    return render_page(form=form, error=message), 500


def too_many_requests(error: HTTPException):
    """The page for a form post over the client's RATELIMIT budget (429), the list kept."""
    seconds = getattr(error, "retry_after", None)  # whole seconds, from check_rate_limit
    later = (ngettext("Try again in %(num)s second.", "Try again in %(num)s seconds.", seconds) if seconds
             else gettext("Try again later."))
    try:
        form = read_form()
    except Exception:  # noqa: BLE001 - the body itself may be the problem
        form = None
    headers = {"Retry-After": str(seconds)} if seconds else {}
    message = gettext("Too many validations from your address just now. %(later)s", later=later)
    return render_page(form=form, error=message), 429, headers


def validate_and_render(form: dict, data: dict):
    """Run the one engine on the loaded request (the deck its link names, read from the
    site, when it gave one) and render the Report, or say why not."""
    from_link = None
    try:
        if "url" in data:
            from_link = deck_urls.judged(deck_urls.of_app(current_app).deck(data["url"]), data)
        validated = pipeline.validate_text(
            from_link.deck.decklist if from_link else data["decklist"],
            card_extension.get_repository(),
            Designation.of(data.get("commanders"), data.get("companion"),
                           signature_spells=data.get("signature_spells")),
            format="text" if from_link else data.get("decklist_format"),
            decklist=from_link.decklist if from_link else None,
            bracket=from_link.bracket if from_link else data.get("bracket"),
            with_overview=True,  # the deck overview under the problems
            game_format=data.get("format"),  # None: the list's own, else Commander
            with_formats=True,  # "legal in ..." for every format, under the facts
            lookup=card_extension.lookup_budget(),
            house_rules=house_rules_of(data),
        )
    except DeckSourceError as error:  # the link's or the site's failure: its status, as the API's
        answer = deck_source_error(error)
        headers = {name: value for name, value in answer.get_headers() if name == "Retry-After"}
        return render_page(form=form, error=error_text(error)), answer.code, headers
    except FieldNotInFormat as error:
        return render_page(form=form, error=field_not_in_format(error)), 422
    except (DecklistError, UnknownFormat, HouseRulesError) as error:
        return render_page(form=form, error=error_text(error)), 422
    except CardDataUnavailable as error:
        # The same figure the API and /readyz send.
        seconds = card_extension.retry_after(error)
        message = ngettext("Card data is not loaded yet. Try again in %(num)s second.",
                           "Card data is not loaded yet. Try again in %(num)s seconds.", seconds)
        response = current_app.make_response((render_page(form=form, error=message), 503))
        response.headers["Retry-After"] = str(seconds)
        return response
    except CardDataError:
        current_app.logger.exception("card data failed while validating from the page")
        return render_page(form=form, error=gettext("Card data could not be read. Try again later.")), 503
    report = validated.report
    if from_link is not None and from_link.from_site:
        report = deck_urls.declared_on_site(report, from_link.deck)
    return render_page(form=form, report=report, translated=validated.translated,
                       site=from_link.deck if from_link else None)


@dataclass(frozen=True)
class Shown:
    """How much of a verdict the page shows: a 1 MiB list of 10,000 unknown names made 8.9 MB
    of HTML (every problem, each one's lines, every line); the JSON API answers in full."""

    violations: int = 100  # problems listed
    each: int = 50  # cards and line links of one problem
    lines: int = 2_000  # lines of "Your list"


SHOWN = Shown()


def render_page(*, form: dict | None = None, report=None, error: str | None = None, translated=(), site=None) -> str:
    """Render the page: the form (refilled), and the verdict or an error when there is one
    (`site`: the card_data.sites.SiteDeck a link named, whose text is "Your list")."""
    form = form or {"text": "", "url": "", "format": "", "commanders": [], "companion": "", "signature_spells": [],
                    "bracket": "", "game_format": "", "house_profile": "", "house_rules": ""}
    return render_template(
        "index.html",
        form=form,
        formats=FORMATS,
        report=report,
        error=error,
        lines=listing(site.decklist if site else form["text"], report.violations, translated) if report else (),
        shown=SHOWN,
        site=site,
        site_label=deck_urls.LABELS.get(site.site, "") if site else "",
        counts=severity_counts(report.violations) if report else {},
        color_names=texts.color_names(),
        scryfall_url=responses.scryfall_search_url,
        card_data=card_data_metadata(),
        max_name=schemas.MAX_NAME_LENGTH,
        bracket_names=BRACKET_NAMES,
        game_formats=GAME_FORMATS,
        format_by_key=FORMAT_BY_KEY,
        format_statuses=FORMAT_STATUSES,
        deckfile_accept=DECKFILE_ACCEPT,
        house_profiles=profiles_in(current_app.extensions).listing(),  # the profile menu
        verdict=verdict(report) if report else None,
        said=Said(message_renderer(report, translated)),
        **page_language(),
        **charts.page_context(report),  # the deck overview and the card previews
    )


def page_language() -> dict:
    """The page's language for the template: <html lang>, the menu, app.js's texts and the
    helpers that name things in it."""
    return {"page_language": texts.language(), "language_menu": texts.language_menu(),
            "script_texts": script_texts(), "role": texts.role, "type_name": texts.type_name}


def message_renderer(report=None, translated=()):
    """How violation and bracket-reason messages are written on the page: the page's language,
    the cards they name as printed in it (pipeline.shown_names: the spelling the list wrote
    first, else the names table's), English where neither has one."""
    code = request_language()
    if report is None or code == DEFAULT:
        return renderer()
    return renderer(pipeline.shown_names(report, translated, card_extension.get_repository(), code))


def error_text(error: Exception) -> str:
    """An error's message in the page's language: its `text` (validator.messages.Text) when it
    carries one, else its own words."""
    text = getattr(error, "text", None)
    return text.render(message_renderer()) if isinstance(text, Text) else str(error)


class Said:
    """A violation's or bracket reason's text in the page's language: `text` is a
    validator.messages.Text, or (not yet converted) a finished English str."""

    def __init__(self, language) -> None:
        self.language = language

    def __call__(self, item) -> str:
        text = item.text
        return text if isinstance(text, str) else text.render(self.language)


def verdict(report) -> str:
    """"Legal", "Not legal", or under house rules "Not legal under Thursday at the store's rules"
    (validator.formats.HouseRules.rules' English possessive, each a whole sentence)."""
    rules = report.house_rules
    if rules is None:
        return gettext("Legal") if report.valid else gettext("Not legal")
    if not rules.name:
        return gettext("Legal under the house rules") if report.valid else gettext("Not legal under the house rules")
    if rules.name.endswith("s"):
        return (gettext("Legal under %(name)s' rules", name=rules.name) if report.valid
                else gettext("Not legal under %(name)s' rules", name=rules.name))
    return (gettext("Legal under %(name)s's rules", name=rules.name) if report.valid
            else gettext("Not legal under %(name)s's rules", name=rules.name))


def card_data_metadata():
    """Where the card data came from and how fresh it is, for the footer; None when unknown."""
    try:
        return card_extension.get_repository().metadata()
    except CardDataError:  # the footer must never take the page down with it
        return None


def listing(text: str, violations: Iterable[Violation], translated: Iterable[Translated] = ()) -> list[Line]:
    """The submitted text split into numbered lines, each marked by the violations naming it
    and by the English card of a name it wrote in another language (pipeline.Translated)."""
    marks = line_marks(violations)
    english: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for read in translated:
        for number in read.lines:
            english[number].append((read.card, texts.printed_language(read.lang)))
    lines = []
    for number, content in enumerate(display_lines(text), start=1):
        severity, codes = marks.get(number, (None, ()))
        lines.append(Line(number, content, severity, codes, tuple(english.get(number, ()))))
    return lines


def display_lines(text: str) -> list[str]:
    """The lines exactly as the parser numbers them (CR, LF, CRLF), minus a final empty one."""
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line does not start another
    return lines


def line_marks(violations) -> dict[int, tuple[str, tuple[str, ...]]]:
    """line number -> (worst severity, codes), so a line shows its worst problem first."""
    codes: dict[int, list[str]] = defaultdict(list)
    errors: set[int] = set()
    for violation in violations:
        for number in violation.lines:
            if violation.code not in codes[number]:
                codes[number].append(str(violation.code))
            if violation.severity == Severity.ERROR:
                errors.add(number)
    return {n: ("error" if n in errors else "warning", tuple(c)) for n, c in codes.items()}


def severity_counts(violations) -> dict[str, int]:
    """How many errors and warnings, for the one-line summary."""
    counts = {"error": 0, "warning": 0}
    for violation in violations:
        counts[str(violation.severity)] = counts.get(str(violation.severity), 0) + 1
    return counts


@bp.app_template_filter("isolate_names")
def isolate_names(message: str, names) -> str:
    """The message with each quoted name that holds bidirectional controls isolated: FSI,
    the name, then as many closers as it opened (a stray closer is ignored), then PDI, so
    whatever it overrides ends with it. static/app.js does the same (isolateNames)."""
    for name in names:
        if BIDI_CONTROLS.search(name):
            closers = "\u202c" * len(EMBEDDINGS.findall(name)) + "\u2069" * len(ISOLATES.findall(name))
            message = message.replace(name, f"\u2068{name}{closers}\u2069")
    return message


@bp.app_template_filter("readable_date")
def readable_date(stamp: str) -> str:
    """An ISO 8601 timestamp as a person reads it, in UTC, in the page's language
    (texts.readable_date: "30 Nov 2026, 10:04 UTC")."""
    return texts.readable_date(stamp)


@bp.app_template_filter("number")
def number(n: int) -> str:
    """A number the page's language's way (Babel)."""
    return texts.number(n)


def too_large_message(limit: int | None) -> str:
    """Say how big a submission may be, in words a person reads; or, for a small body that
    werkzeug refused for its number of form parts (MAX_FORM_PARTS), that."""
    length = request.content_length
    if limit and length is not None and length <= limit:
        return gettext("The form has too many fields (at most %(count)s).", count=texts.number(request.max_form_parts or 0))
    if not limit:
        return gettext("The submission is too large.")
    return gettext("The submission is too large (the limit is %(size)s KiB).", size=texts.number(limit // 1024))
