"""Decks by URL for every way in (the API, the page, edh-validate): DESIGN.md "Decks by URL".

`fetch(url)` reads the deck a link names through card_data.sites, with this process's
request budget per site and the deck cache from card_data.coordination (files next to
the store, or Redis for a cluster). `judged(deck, request)` parses the text the service
wrote for it and says which bracket to check: the request's `bracket` wins (`null`
switches the check off), else the one declared on the site, when the deck is judged in a
format that has brackets (a site's declared bracket never makes a 422: outside Commander
it just does not apply). `declared_on_site` makes the bracket errors say where the
bracket was declared; `source_body` is the response's `source`.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Iterable, Mapping, NamedTuple

from card_data import Deadline
from card_data.coordination import coordination_for
from card_data.errors import DeckSourceError
from card_data.settings import DeckSiteSettings, StoreSettings
from card_data.sites import DeckSites, SiteDeck
from card_data.sites.fetch import FETCH_SECONDS
from card_data.sites.sources import SITES
from validator.decklist import Decklist
from validator.engine import Report
from validator.formats import COMMANDER, Format, format_named, named_in_file
from validator.messages import Text
from edh_service.config import deck_site_settings, store_settings
from validator.parse import parse

MAX_BATCH_URLS = 10  # distinct links one batch may name
FETCHING_AT_ONCE = 4  # a batch's links read side by side (each site's budget still spaces them)
LABELS = {site.NAME: site.LABEL for site in SITES}
# One link alone in the page's decklist box: a scheme, or a host with a path (`archidekt.com/decks/1`).
LINK_ALONE = re.compile(r"(?:https?://\S+|(?:www\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/\S*)", re.IGNORECASE)
_sites: dict[tuple, DeckSites] = {}


def deck_sites(sites: DeckSiteSettings, store: StoreSettings) -> DeckSites:
    """The process's DeckSites for these settings: the sites' budgets and the deck cache of
    the store's coordination (one object per settings, so its connections are reused)."""
    key = (sites, store)
    if key not in _sites:
        coordination = coordination_for(store)
        _sites[key] = DeckSites(sites, coordination.site_limits, coordination.deck_cache())
    return _sites[key]


def of_app(app: Any) -> DeckSites:
    """The Flask app's DeckSites (its settings read once, kept in app.extensions)."""
    sites = app.extensions.get("deck_sites")
    if sites is None:
        sites = app.extensions["deck_sites"] = deck_sites(deck_site_settings(app.config), store_settings(app.config))
    return sites


def link_alone(text: str) -> str | None:
    """The link, when a decklist box holds one link and nothing else."""
    stripped = text.strip()
    return stripped if LINK_ALONE.fullmatch(stripped) else None


def link_argument(argument: str) -> bool:
    """Whether a command-line argument that names no file is a link: it has a scheme, or
    starts with a deck site's host (`archidekt.com/decks/1`); `my.decks/a.txt` is a path."""
    lowered = argument.lower()
    hosts = tuple(f"{host}/" for site in SITES for host in site.HOSTS)
    return link_alone(argument) is not None and (lowered.startswith(("http://", "https://")) or lowered.startswith(hosts))


def fetch_all(sites: DeckSites, urls: Iterable[str]) -> dict[str, SiteDeck | DeckSourceError]:
    """Each distinct link's deck, or why not; read side by side within one FETCH_SECONDS."""
    wanted = list(dict.fromkeys(urls))
    deadline = Deadline(FETCH_SECONDS)

    def one(url: str) -> SiteDeck | DeckSourceError:
        try:
            return sites.deck(url, deadline)
        except DeckSourceError as error:
            return error

    if len(wanted) <= 1:
        return {url: one(url) for url in wanted}
    with ThreadPoolExecutor(max_workers=min(len(wanted), FETCHING_AT_ONCE), thread_name_prefix="deck-url") as pool:
        return dict(zip(wanted, pool.map(one, wanted)))


class Judged(NamedTuple):
    """A fetched deck ready for the pipeline: its text parsed, and the bracket to check."""

    deck: SiteDeck
    decklist: Decklist
    bracket: int | None
    from_site: bool  # the bracket is the one declared on the site


def judged(deck: SiteDeck, request: Mapping[str, Any]) -> Judged:
    """Parse the deck's text (DecklistError for one refused outright) and choose its bracket."""
    decklist = parse(deck.decklist, "text")
    if "bracket" in request:  # the request's, even null (off)
        return Judged(deck, decklist, request["bracket"], False)
    if deck.declared_bracket is None or not judged_format(request.get("format"), decklist).brackets:
        return Judged(deck, decklist, None, False)
    return Judged(deck, decklist, deck.declared_bracket, True)


def judged_format(game_format: str | None, decklist: Decklist) -> Format:
    """The format the deck will be judged in: the request's, else the one it names, else Commander."""
    if game_format:
        return format_named(game_format)
    named = decklist.named_format
    return (named_in_file(named.text) if named is not None else None) or COMMANDER


def declared_on_site(report: Report, deck: SiteDeck) -> Report:
    """The report with each bracket error saying the bracket was declared on the site."""
    said = f" The deck declares bracket {deck.declared_bracket} on {LABELS.get(deck.site, deck.site)}."
    # a Text of the English as it was (no message id of its own yet): Violation.text is a Text
    violations = tuple(replace(v, text=Text(v.message + said)) if v.code.startswith("bracket_") else v
                       for v in report.violations)
    return replace(report, violations=violations)


def source_body(deck: SiteDeck) -> dict:
    """The response's `source`: where the deck came from and what the site declared."""
    return {"site": deck.site, "id": deck.id, "url": deck.url, "name": deck.name, "fetched_at": deck.fetched_at,
            "declared_bracket": deck.declared_bracket}
