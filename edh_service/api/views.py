"""The JSON API (/api/v1) and the health endpoints.

No rule logic lives here: a view reads the request through a schema, hands the text to
`pipeline.validate_text` and dumps the Report. Errors become the one JSON envelope in
errors.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Blueprint, current_app, jsonify
from werkzeug.exceptions import NotFound

from card_data import CardDataUnavailable
from card_data.errors import DeckSourceError
from card_data.lists.refresh import SHRUNK
from card_data.sites import SiteDeck
from card_data.store.list_tables import BRACKET_LISTS, FORMAT_LISTS, ListStatus
from card_data.repository import MAX_SUGGESTED_NAMES
from edh_service import card_extension, deck_urls, house_rules, pipeline
from edh_service.house_profiles import Profile, profiles_in
from edh_service.api import responses, schemas
from edh_service.serving import observability
from edh_service.card_extension import get_repository
from edh_service.api.errors import Said, deck_source_error, unprocessable
from edh_service.i18n import DEFAULT, choose
from edh_service.i18n.app import renderer, request_language, set_language
from edh_service.i18n.catalogs import language as language_of
from edh_service.api.reading import load, read_json, read_validate_request
from validator.brackets import BracketData, card_flags
from validator.decklist import Decklist, Designation
from validator.formats import FieldNotInFormat, UnknownFormat, format_table
from validator.messages import msg
from validator.parse import DecklistError, parse, split_lines
from validator.parse.common import line_count as count_lines
from edh_service.i18n import app as i18n
from validator.card_facts import commander_eligibility, pairing_abilities
from validator import ENGINE

# What /readyz says of a failing sync: upstream error text (Scryfall's or a proxy's answer,
# paths, addresses) is for the log, where runtime.BackgroundSync writes it, not for any client.
SYNC_FAILED = "The last card data sync failed; the service's log says why."
BATCH_MIN_SUGGESTIONS = 1  # each deck of a batch still gets a suggestion for its first typo


# --- the API ---------------------------------------------------------------------------

bp = Blueprint("api", __name__, url_prefix="/api/v1")


@bp.post("/validate")
def validate():
    """Validate one decklist (JSON body or text/plain), or the deck a link names, and return
    every violation."""
    data = read_validate_request()
    set_language(data.get("lang"))
    one_source(data)
    from_link = None
    if "url" in data:  # a DeckSourceError is the envelope with its status (errors.deck_source_error)
        from_link = link_judged(deck_urls.of_app(current_app).deck(data["url"]), data)
    # The body as a dict: Flask's make_response answers it with app.json.response, as jsonify
    # does, without jsonify's look-up of current_app through its proxy.
    return validate_deck(data, decklist=from_link.decklist if from_link else None, from_link=from_link)


@bp.post("/validate/batch")
def validate_batch():
    """Validate up to BATCH_LIMIT decks; one result each, in request order."""
    body = read_json()
    data = load(schemas.batch_request_schema(current_app.config["BATCH_LIMIT"]), body)
    set_language(data.get("lang"))
    decks = data["decks"]
    for index, deck in enumerate(decks):
        one_source(deck, ("decks", str(index)))
    check_batch_house_rules(decks)
    sites = fetch_batch(decks)
    texts = [deck["decklist"] if site is None else site.decklist for deck, site in zip(decks, sites)]
    check_batch_lines(texts, current_app.config["BATCH_LINE_LIMIT"])
    parsed = parse_batch(decks, sites, current_app.config["BATCH_LINE_LIMIT"])
    # The decks share one suggestion budget: fuzzy "did you mean" costs ~13 ms a name, and
    # 50 decks of garbage names would otherwise take minutes (measured: 20 decks, 38 s).
    share = max(BATCH_MIN_SUGGESTIONS, MAX_SUGGESTED_NAMES // len(decks))
    results = [validate_deck(deck, suggest_limit=share, decklist=decklist, where=("decks", str(index)),
                             from_link=from_link)
               for index, (deck, (decklist, from_link)) in enumerate(zip(decks, parsed))]
    return jsonify({"results": results})


def one_source(data: Mapping[str, Any], where: tuple[str, ...] = ()) -> None:
    """422 naming both fields unless the request gives exactly one of `decklist` and `url`."""
    if ("decklist" in data) != ("url" in data):
        return
    message = Said(msg("Give exactly one of decklist and url: the list itself, or a link to the deck on Archidekt "
                       "or Moxfield."))
    errors: dict = {"decklist": [message], "url": [message]}
    for key in reversed(where):
        errors = {key: errors}
    raise unprocessable(message, errors)


def fetch_batch(decks: list[Mapping[str, Any]]) -> list[SiteDeck | None]:
    """The deck each batch item's `url` names (None for an item with a decklist), read side by
    side; 422 past MAX_BATCH_URLS distinct links, and the first item whose link gave no
    deck answers for the batch (its status, every failed item named in `errors`)."""
    urls = [deck.get("url") for deck in decks]
    distinct = set(filter(None, urls))
    if len(distinct) > deck_urls.MAX_BATCH_URLS:
        message = Said(msg("The batch names {links} different deck links; at most {limit} are read in one batch. "
                           "Send fewer.", links=str(len(distinct)), limit=str(deck_urls.MAX_BATCH_URLS)))
        raise unprocessable(message, {"decks": [message]})
    if not distinct:
        return [None] * len(decks)
    found = deck_urls.fetch_all(deck_urls.of_app(current_app), [url for url in urls if url])
    failed = {str(index): {"url": [str(found[url])]} for index, url in enumerate(urls)
              if url and isinstance(found[url], DeckSourceError)}
    if failed:
        first = next(found[url] for url in urls if url and isinstance(found[url], DeckSourceError))
        answer = deck_source_error(first)  # type: ignore[arg-type]
        answer.errors = {"decks": failed}  # type: ignore[attr-defined]
        raise answer
    return [found[url] if url else None for url in urls]  # type: ignore[misc]


def link_judged(site: SiteDeck, data: Mapping[str, Any], where: tuple[str, ...] = ()) -> deck_urls.Judged:
    """A fetched deck's text parsed and its bracket chosen; 422 on `url` for a deck the
    parser refuses outright (over 10,000 lines)."""
    try:
        return deck_urls.judged(site, data)
    except DecklistError as error:
        errors: dict = {"url": [str(error)]}
        for key in reversed(where):
            errors = {key: errors}
        raise unprocessable(msg("The deck at that link cannot be checked: {reason}", reason=str(error)), errors) from None


@bp.get("/formats")
def formats():
    """The Commander-family formats as the engine judges them, and the dates of their data."""
    repository = get_repository()
    try:
        meta = repository.metadata()
    except CardDataUnavailable:  # the table is the code's: it is served before any card data
        meta = None
    lists = repository.bracket_status() or {}
    pauper = lists.get(FORMAT_LISTS[0])
    language = renderer()  # the human-readable texts (name, who commands) in the request's language
    table = [{**entry, "name": language.gettext(entry["name"]), "commander": language.gettext(entry["commander"])}
             for entry in format_table()]
    return jsonify({"formats": table, "sources": {
        "legalities": {"updated_at": responses.dump_card_data(meta)["updated_at"]} if meta else None,
        "pauper_commanders": list_body(pauper) if pauper is not None and pauper.loaded else None,
    }})


@bp.get("/house-rules")
def house_rules_profiles():
    """The operator's house rules profiles (HOUSE_RULES_DIR): what a request's house_rules may name."""
    return jsonify({"profiles": profiles_in(current_app.extensions).listing()})


def check_batch_house_rules(decks: list[Mapping[str, Any]]) -> None:
    """422 when the distinct house rules a batch sends hold more than MAX_BATCH_NAMES names in
    all: each list is resolved once, but fifty different lists of 500 names would be 25,000
    names to resolve (a profile is resolved once per version, whatever the batch)."""
    sent = {house_rules.HouseList.of(deck["house_rules"]) for deck in decks if isinstance(deck.get("house_rules"), dict)}
    names = sum(len(house.names()) for house in sent)
    if names > house_rules.MAX_BATCH_NAMES:
        message = Said(msg("The batch's house rules name {names} cards in all; at most {limit} are accepted. Send the "
                           "same rules with each deck, or keep them as a profile (HOUSE_RULES_DIR).",
                           names=names, limit=house_rules.MAX_BATCH_NAMES))
        raise unprocessable(message, {"decks": [message]})


def house_rules_of(data: Mapping[str, Any]) -> house_rules.HouseList | Profile | None:
    """The request's house rules: the profile it names (UnknownProfile for none), the rules
    it sends, or None."""
    given = data.get("house_rules")
    if given is None:
        return None
    if isinstance(given, str):
        return profiles_in(current_app.extensions).get(given)
    return house_rules.HouseList.of(given)


def parse_batch(decks: list[Mapping[str, Any]], sites: list[SiteDeck | None],
                limit: int) -> list[tuple[Decklist, deck_urls.Judged | None]]:
    """Every deck of a batch parsed before any is checked (a linked deck as deck_urls.judged
    reads it): 422 for a deck the parser refuses, or when the decks read as more than
    `limit` card entries and problems in all (a JSON or XML list of one line can hold
    10,000 entries, so lines alone do not bound a batch: nine one-line TappedOut exports of
    10,000 names each, 957 KiB, took 6.5 s)."""
    parsed: list[tuple[Decklist, deck_urls.Judged | None]] = []
    items = 0
    for index, (deck, site) in enumerate(zip(decks, sites)):
        if site is not None:
            from_link = link_judged(site, deck, ("decks", str(index)))
            parsed.append((decklist := from_link.decklist, from_link))
        else:
            try:
                parsed.append((decklist := parse(deck["decklist"], deck.get("decklist_format")), None))
            except DecklistError as error:
                message = Said(error.text)
                raise unprocessable(message, {"decks": {str(index): {"decklist": [message]}}}) from None
        items += len(decklist.entries) + len(decklist.problems)
        if items > limit:  # said at once: the decks after it are not even parsed
            message = Said(msg("The batch's first {decks} decks hold {items} card entries and problems; at most "
                               "{limit} are accepted in all. Send fewer decks.", decks=str(index + 1), items=items,
                               limit=limit))
            raise unprocessable(message, {"decks": [message]})
    return parsed


def check_batch_lines(texts: list[str], limit: int) -> None:
    """422 when a batch holds more lines in all than `limit`: the work per request is bounded
    by lines, and 50 decks of 10,000 lines each would be 50 times one deck's worst case."""
    lines = sum(line_count(text) for text in texts)
    if lines > limit:
        message = Said(msg("The batch has {lines} lines in all; at most {limit} are accepted. Send fewer decks.",
                           lines=str(lines), limit=str(limit)))
        raise unprocessable(message, {"decks": [message]})


def line_count(text: str) -> int:
    """Lines as the list's author counts them (CR, LF and CRLF each break a line, as the
    parser numbers them; a final line break ends a line, it does not start another)."""
    return count_lines(split_lines(text))


@bp.get("/cards/<path:name>")
def card(name: str):
    """What the service knows about one card, or 404 with suggestions."""
    name = load(schemas.card_name_schema, {"name": name})["name"]
    resolution = get_repository().resolve([name], lookup=card_extension.lookup_budget())
    found = resolution.cards.get(name)
    if found is None:
        suggestions = list(resolution.suggestions.get(name, ()))
        unavailable = name in resolution.unavailable
        text = (msg("No card named {name} is in the card data, and Scryfall did not answer in time to be asked; "
                    "try again in a minute.", name=repr(name)) if unavailable
                else msg("No card is named {name}.", name=repr(name)))
        error = NotFound(text.english())
        error.text = text  # type: ignore[attr-defined]  # the envelope's (api/errors.py)
        error.errors = {"name": name, "suggestions": suggestions, "lookup_unavailable": unavailable}  # type: ignore[attr-defined]
        raise error
    repository = get_repository()
    return jsonify(card_body(found, repository.describe(name) or {}, repository.bracket_data()))


def validate_deck(data: Mapping[str, Any], suggest_limit: int | None = None, decklist: Decklist | None = None,
                  where: tuple[str, ...] = (), from_link: deck_urls.Judged | None = None) -> dict:
    """Run one loaded request through the engine and dump the Report (`decklist`: its
    decklist already parsed, as a batch does; `where`: the item's path in a batch, for a
    422; `from_link`: the deck its `url` named, its text judged and its bracket chosen).

    No `format`: the list's own (format_inferred), else Commander. A field the format has
    no use for (a declared bracket outside Commander, signature spells outside Oathbreaker)
    is a 422 naming it: the format may be the one the list named, known only here. House
    rules naming an unknown profile, or a name that is no card, are a 422 too."""
    repo = get_repository()
    include = data.get("include") or ()
    try:
        house = house_rules_of(data)
        report, source, translated = pipeline.validate_text(
            from_link.deck.decklist if from_link else data["decklist"],
            repo,
            Designation.of(data.get("commanders"), data.get("companion"), data.get("color_choices"),
                           data.get("signature_spells")),
            decklist=decklist,
            suggest_limit=suggest_limit,
            format="text" if from_link else data.get("decklist_format"),
            bracket=from_link.bracket if from_link else data.get("bracket"),
            with_overview="overview" in include,
            game_format=data.get("format"),
            with_formats="formats" in include,
            lookup=card_extension.lookup_budget(),
            house_rules=house,
        )
    except (FieldNotInFormat, UnknownFormat, house_rules.HouseRulesError) as error:
        message = str(error) if error.text is None else Said(error.text)  # house rules' own texts: some are words
        errors: dict = ({"house_rules": error.errors} if isinstance(error, house_rules.HouseRulesError)
                        else {error.field: [message]})
        for key in reversed(where):
            errors = {key: errors}
        raise unprocessable(message, errors) from None
    observability.record_verdict(report.valid)
    if from_link is not None and from_link.from_site:
        report = deck_urls.declared_on_site(report, from_link.deck)
    # The metadata of the store the cards came from, not of whatever file is current now.
    code = choose(field=data["lang"]) if data.get("lang") is not None else request_language()
    language = language_of(code, pipeline.shown_names(report, translated, repo, code)) if code != DEFAULT else None
    body = responses.dump_report(report, source or repo.metadata(), include, translated, language)
    if from_link is not None:
        body["source"] = deck_urls.source_body(from_link.deck)
        body["decklist"] = from_link.deck.decklist
    return body


def card_body(card, described: Mapping[str, Any], bracket_data: BracketData) -> dict:
    """The /api/v1/cards response: the stored card plus what the rules say about it
    (commander eligibility, pairing, and the Commander Brackets flags)."""
    reason = commander_eligibility(card)
    return schemas.card_schema.dump({
        "scryfall_uri": responses.scryfall_search_url(card.name),  # a stored scryfall_uri wins
        **described,
        **card_flags(card, bracket_data),
        "legality": card.legality,
        "commander": {"eligible": reason is None, "reason": None if reason is None else reason.render(i18n.renderer())},
        "pairing_abilities": list(pairing_abilities(card)),
    })


# --- health ----------------------------------------------------------------------------


def healthz():
    """Liveness: the process answers. Card data is /readyz's business."""
    return jsonify({"status": "ok"})


def readyz():
    """Readiness: 200 once card data is loaded, 503 with Retry-After before."""
    meta = get_repository().metadata()
    if meta is None or not meta.cards:
        raise CardDataUnavailable("card data is not loaded yet", card_extension.wait_seconds())
    updated = responses.dump_card_data(meta)["updated_at"]
    lists = get_repository().bracket_status() or {}
    body: dict[str, Any] = {"status": "ready", "card_data": {"updated_at": updated, "cards": meta.cards},
                            "bracket_lists": lists_body(lists, BRACKET_LISTS),
                            "format_lists": lists_body(lists, FORMAT_LISTS),
                            "card_names": get_repository().names_status().shown(), "engine": ENGINE}
    syncer = card_extension.get_syncer()
    if syncer is not None and syncer.last_error:
        # Still serving from the last good store, but it is not being refreshed: say so.
        body.update(degraded=True, last_sync_error=SYNC_FAILED)
    profiles = profiles_in(current_app.extensions)
    if profiles.folder is not None:  # the profiles served and the broken ones: not a readiness condition
        body["house_rules"] = profiles.status()
    redis = observability.redis_status(current_app)
    if redis is not None:
        # Validation goes on without Redis (limits fail open): ready, and saying so.
        body["redis"] = redis
    return jsonify(body)


def lists_body(lists: Mapping[str, ListStatus], kinds: tuple[str, ...]) -> dict[str, dict | None]:
    """Each synced list's size and date as /readyz shows it (None: not loaded, so brackets
    say the check was not made, and a Pauper Commander commander is legality_unknown). Not
    a readiness condition: validation works without them."""
    return {kind: list_body(lists[kind]) if kind in lists and lists[kind].loaded else None for kind in kinds}


def list_body(status: ListStatus) -> dict:
    """One loaded list: its entries and its source's updated_at, and whether the last refresh
    was refused for shrinking the list by more than half (the log says from what source)."""
    body: dict = {"entries": status.entries, "updated_at": status.updated_at}
    if status.error and status.error.startswith(SHRUNK):
        body["update_refused"] = True
    return body


