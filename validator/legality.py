"""The legality screen (rules.legality): one code per card, first match wins:
non_deck_card, banned (the format key's `banned`, or a Conspiracy), banned_as_commander (a
commander whose value is the format's `commander_ban`), not_legal (a value outside
`deck_values`); and one legality_unknown warning naming every card with no value for the
key, plus the commanders the format's data cannot verify. `legality_codes` is its
codes-only twin for the all-formats block (same answers, no messages built).

House rules (Deck.house_rules, DESIGN.md "House rules") change the screen in one way: a
card they unban is not banned or banned_as_commander, a house_unbanned warning says so
instead, and the rest of the screen still judges it. Their own bans are the rule
`house_rules` below: house_banned and house_banned_as_commander.
"""

from __future__ import annotations

from typing import Iterator

from validator.card_facts import is_non_deck, non_deck_kind
from validator.deck import Card, Entry
from validator.deck_facts import Deck, deck_format, deck_format_data, tally
from validator.formats import Format, HouseRules
from validator.messages import Name, Names, Term, Text, msg, nmsg
from validator.phrasing import card_names, line_numbers
from validator.violations import Code, Severity, Violation


def legality(deck: Deck) -> Iterator[Violation]:
    """One legality code per card, first match: non_deck_card, banned, banned_as_commander,
    not_legal, read from the format's own legality key; and one legality_unknown warning
    naming every card whose data has no value for that key (never taken as legal). A ban
    the house rules lift is a house_unbanned warning instead."""
    fmt = deck_format(deck)
    unknown: list[Entry] = []
    for entry, code in _legality_codes(deck, fmt):
        if code == Code.LEGALITY_UNKNOWN:
            unknown.append(entry)
        else:
            yield _legality_violation(entry, code, fmt, deck.house_rules)
    unverified = _unverified(deck, fmt)
    if unknown or unverified:
        yield _legality_unknown(unknown, unverified, fmt)


def legality_codes(deck: Deck) -> set[str]:
    """The codes `legality` reports for the deck (its errors, and legality_unknown when it
    warns; never house_unbanned), without building its violations (the all-formats block
    needs only the codes, for seven formats, and whether the data could judge every card)."""
    fmt = deck_format(deck)
    codes = {code for _, code in _legality_codes(deck, fmt, every_unknown=False) if code != Code.HOUSE_UNBANNED}
    if Code.LEGALITY_UNKNOWN not in codes and _unverified(deck, fmt):
        codes.add(Code.LEGALITY_UNKNOWN)
    return codes


def _unverified(deck: Deck, fmt: Format) -> list[Entry]:
    """The commanders judged by the format's list when that list is not loaded."""
    data = deck_format_data(deck)
    return [e for e in deck.commanders if fmt.commanders.unverified(e.card, data) and not is_non_deck(e.card)]


def _legality_codes(deck: Deck, fmt: Format, every_unknown: bool = True) -> Iterator[tuple[Entry, str]]:
    """(entry, its one legality code) for every card with one, in deck order; legality_unknown
    for every such card, or (`every_unknown` False: the codes are all that is wanted) for
    the first alone (card data without the format's key has it for every card)."""
    key = fmt.legality_key
    companion = deck.companion
    # a cheap screen first: almost every card is a legal, plain, traditional card
    if key == "commander":  # Card.commander_suspect answers for that key; the Tally keeps the few that may be
        suspects = [e for e in tally(deck).notable if e.card.commander_suspect]
        if companion is not None and companion.card.commander_suspect:
            suspects.append(companion)
    else:
        zone = [*deck.commanders, *deck.main, companion] if companion else [*deck.commanders, *deck.main]
        suspects = [e for e in zone if (card := e.card).legalities.get(key) != "legal" or not card.plain]
    if not suspects:
        return
    commanders = {id(e) for e in deck.commanders}
    by_key = fmt.commanders.by_key
    lifted = deck.house_rules.unbanned if deck.house_rules is not None else frozenset()
    said_unknown = False
    for entry in suspects:
        card = entry.card
        if card.plain and key not in card.legalities and (by_key or id(entry) not in commanders):
            # the common unknown: a plain card with no value (_legality_code's answer, sooner)
            if every_unknown or not said_unknown:
                said_unknown = True
                yield entry, Code.LEGALITY_UNKNOWN
            continue
        code = _legality_code(card, fmt, id(entry) in commanders)
        if lifted and code in _LIFTED and card.name in lifted:
            # the house rules allow it: judged as the card it would be without the ban
            yield entry, Code.HOUSE_UNBANNED
            code = _legality_code(card, fmt, id(entry) in commanders, lifted=True)
        if code is not None:
            yield entry, code


_LIFTED = (Code.BANNED, Code.BANNED_AS_COMMANDER)  # the format's bans house rules can lift


def _legality_code(card: Card, fmt: Format, commander: bool, lifted: bool = False) -> str | None:
    """The one legality code of a card (a commander, when `commander`) in the format:
    non_deck_card, banned, banned_as_commander, legality_unknown (no value for the key),
    not_legal, or None. `lifted`: the format's bans do not apply (the house rules unban
    it), so a `banned` value reads as the legal card it would be."""
    if not card.plain and non_deck_kind(card):
        return Code.NON_DECK_CARD
    if commander and not fmt.commanders.by_key:
        return None  # judged by the format's commander list alone (commander_ineligible)
    value = card.legalities.get(fmt.legality_key)
    if lifted:
        return None if value is not None and value in ("banned", fmt.commander_ban) else _pool_code(value, fmt)
    if value == "banned" or "Conspiracy" in card.types:
        return Code.BANNED
    if commander and value is not None and value == fmt.commander_ban:
        return Code.BANNED_AS_COMMANDER
    return _pool_code(value, fmt)


def _pool_code(value: str | None, fmt: Format) -> str | None:
    """legality_unknown (no value), not_legal (outside the format's card pool), or None."""
    if value is None:
        return Code.LEGALITY_UNKNOWN
    if value not in fmt.deck_values:
        return Code.NOT_LEGAL
    return None


def _legality_violation(entry: Entry, code: str, fmt: Format, house: HouseRules | None = None) -> Violation:
    """The violation of one entry's legality code (not legality_unknown: one warning names them all)."""
    name = entry.card.name
    card, format_name = Name(name), Term(fmt.name)
    if code == Code.NON_DECK_CARD:
        text = msg("{card} is {kind}, not a card for the deck.", card=card, kind=non_deck_kind(entry.card) or "")
    elif code == Code.BANNED:
        text = msg("{card} is banned in {format}.", card=card, format=format_name)
    elif code == Code.BANNED_AS_COMMANDER:
        text = _as_role(fmt, msg("{card} is banned as a commander in {format} (it is legal in the deck).",
                                 card=card, format=format_name),
                        msg("{card} is banned as an oathbreaker in {format} (it is legal in the deck).",
                            card=card, format=format_name))
    elif code == Code.HOUSE_UNBANNED and house is not None:
        value = entry.card.legalities.get(fmt.legality_key)
        rules = house.name or ""
        if value == "banned" or "Conspiracy" in entry.card.types:
            text = house.said(msg("{card} is banned in {format}, but the house rules ({house}) allow it.",
                                  card=card, format=format_name, house=rules),
                              msg("{card} is banned in {format}, but the house rules allow it.",
                                  card=card, format=format_name))
        else:
            text = house.said(msg("{card} is banned as a commander in {format}, but the house rules ({house}) allow "
                                  "it.", card=card, format=format_name, house=rules),
                              msg("{card} is banned as a commander in {format}, but the house rules allow it.",
                                  card=card, format=format_name))
        return Violation(code, text, Severity.WARNING, cards=(name,), lines=entry.lines)
    else:
        text = msg("{card} is not legal in {format}.", card=card, format=format_name)
    return Violation(code, text, cards=(name,), lines=entry.lines)


def _as_role(fmt: Format, commander: Text, oathbreaker: Text) -> Text:
    """The sentence for the format's role: its commanders, or its oathbreakers."""
    return oathbreaker if fmt.role == "oathbreaker" else commander


def house_rules(deck: Deck) -> Iterator[Violation]:
    """The table's own bans (DESIGN.md "House rules"): house_banned for each card they ban
    in the deck, commanders and companion included; house_banned_as_commander for each
    commander they ban in that role (legal in the deck). A card no deck may hold is
    non_deck_card alone."""
    house = deck.house_rules
    if house is None or not (house.banned or house.banned_as_commander):
        return
    banned = tally(deck).names & house.banned  # set & set walks the smaller: the deck, not the list
    companion = deck.companion
    if companion is not None and companion.card.name in house.banned:
        banned |= {companion.card.name}
    as_commander = ({e.card.name for e in deck.commanders} & house.banned_as_commander) - banned
    if not banned and not as_commander:
        return
    fmt = deck_format(deck)
    rules = house.name or ""
    zone = [*deck.commanders, *deck.main, companion] if companion else [*deck.commanders, *deck.main]
    for name in sorted(banned | as_commander):
        entries = [e for e in (deck.commanders if name in as_commander else zone)
                   if e.card.name == name and not is_non_deck(e.card)]
        if not entries:
            continue
        card = Name(name)
        if name in banned:
            text = house.said(msg("{card} is banned under the house rules ({house}).", card=card, house=rules),
                              msg("{card} is banned under the house rules.", card=card))
            yield Violation(Code.HOUSE_BANNED, text, cards=(name,), lines=line_numbers(entries))
        else:
            text = _as_role(fmt, house.said(msg("{card} is banned as a commander under the house rules ({house}); it is "
                                                "legal in the deck.", card=card, house=rules),
                                            msg("{card} is banned as a commander under the house rules; it is legal "
                                                "in the deck.", card=card)),
                            house.said(msg("{card} is banned as an oathbreaker under the house rules ({house}); it is "
                                           "legal in the deck.", card=card, house=rules),
                                       msg("{card} is banned as an oathbreaker under the house rules; it is legal in "
                                           "the deck.", card=card)))
            yield Violation(Code.HOUSE_BANNED_AS_COMMANDER, text, cards=(name,), lines=line_numbers(entries))


def _legality_unknown(entries: list[Entry], unverified: list[Entry], fmt: Format) -> Violation:
    """The warning naming every card whose legality in the format is unknown: no value for
    its key, or (`unverified`) a commander whose format list is not loaded."""
    names = card_names(entries)
    said: list[Text] = []
    format_name = Term(fmt.name)
    if entries:
        if len(names) <= 10:
            said.append(nmsg("The card data has no {format} legality ({key}) for {cards}, so it was not taken as legal.",
                             "The card data has no {format} legality ({key}) for {cards}, so they were not taken as "
                             "legal.", len(names), format=format_name, key=fmt.legality_key, cards=Names(names)))
        else:
            said.append(nmsg("The card data has no {format} legality ({key}) for {n} card, so it was not taken as "
                             "legal.",
                             "The card data has no {format} legality ({key}) for {n} cards, so they were not taken as "
                             "legal.", len(names), format=format_name, key=fmt.legality_key))
    if unverified:
        unchecked = Names(card_names(unverified))
        said.append(_as_role(fmt, msg("The {format} commander list is not loaded, so whether {cards} can be your "
                                      "commander was not checked.", format=format_name, cards=unchecked),
                             msg("The {format} commander list is not loaded, so whether {cards} can be your "
                                 "oathbreaker was not checked.", format=format_name, cards=unchecked)))
    said.append(msg("The verdict rests on the other checks."))
    return Violation(
        Code.LEGALITY_UNKNOWN,
        said[0].then(*said[1:]),
        Severity.WARNING,
        cards=tuple(sorted({*names, *card_names(unverified)})) if unverified else names,
        lines=line_numbers([*entries, *unverified]),
    )
