"""Every Commander deck-construction rule: one generator per rule, registered in RULES.

Each rule takes a resolved `Deck`, yields zero or more `Violation`s and never raises.
What a card is (eligibility, pairing abilities, copy limits...) comes from
validator/card_facts.py, what the deck adds up to (count, identity) from
validator/deck_facts.py, the companion conditions from validator/companions.py and the
messages' English from validator/phrasing.py: this module decides and reports. Two
families live beside it: the legality screen (legality.py) and the side decks
(side_decks.py: planar, scheme, sideboard, piles outside the game).
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable, Iterator

from validator.card_facts import (
    basic_land_types, can_pair, chooses_color, copy_limit,
    has_companion, is_background, is_instant_or_sorcery, is_non_deck,
)
from validator.companions import COMPANION_CONDITIONS
from validator.deck import Entry
from validator.deck_facts import (
    COLOR_LETTERS, Deck, assumed_colors, card_count, chosen_basic_land_type, commander_identity, deck_format,
    deck_format_data, designated_commanders, identity_entries, tally, unchosen_commanders,
)
from validator.legality import house_rules, legality, legality_codes
from validator.phrasing import (
    a_or_an, about, and_list, card_names, color_text, commander_word, included_role, is_are, line_numbers, or_list,
    pairing_summary, plural,
)
from validator.side_decks import GAME_SECTIONS, not_in_deck, planar_deck, scheme_deck, sideboard
from validator.violations import Code, Severity, Violation

Rule = Callable[[Deck], Iterable[Violation]]

# --- the rules ---------------------------------------------------------------------


def unknown_card(deck: Deck) -> Iterator[Violation]:
    """A name in the deck that resolves to no card: one violation per distinct name."""
    by_name: dict[str, list] = {}
    for unknown in deck.unknown:
        if unknown.section in GAME_SECTIONS:  # elsewhere: named by sideboard / not_in_deck
            by_name.setdefault(unknown.name, []).append(unknown)
    for name, entries in by_name.items():
        if entries[0].ambiguous:
            yield _ambiguous(name, entries)
            continue
        suggestions = next((u.suggestions for u in entries if u.suggestions), ())[:3]
        hint = f" Did you mean {or_list(suggestions)}?" if suggestions else ""
        yield Violation(
            Code.UNKNOWN_CARD,
            f"No card is named \"{name}\".{hint}",
            cards=(name,),
            lines=line_numbers(entries),
            suggestions=suggestions,
        )


def _ambiguous(name: str, entries: list) -> Violation:
    """A name printed in another language for several cards: which one is meant is not guessed."""
    candidates = entries[0].suggestions
    return Violation(
        Code.AMBIGUOUS_CARD,
        f"\"{name}\" is the printed name of {len(candidates)} different cards: {or_list(candidates)}. "
        "Write the card's English name (or another printed name of it).",
        cards=(name,),
        lines=line_numbers(entries),
        suggestions=candidates,
    )


def commander_missing(deck: Deck) -> Iterator[Violation]:
    """903.3: a Commander deck needs a designated commander (an Oathbreaker deck an oathbreaker)."""
    if not designated_commanders(deck):
        yield Violation(
            Code.COMMANDER_MISSING,
            f"No {deck_format(deck).role} is designated; mark one in the list (a Commander header above it, *CMDR* "
            "after it, or a COMMANDER: line) or name it in the request (commanders; --commander in the CLI).",
            rule="903.3",
        )


def invalid_quantity(deck: Deck) -> Iterator[Violation]:
    """A commander or companion line asks for more than one copy of the card."""
    zone = [(e, "commander") for e in deck.commanders]
    if deck.companion:
        zone.append((deck.companion, "companion"))
    for entry, role in zone:
        if entry.quantity > 1:
            yield Violation(
                Code.INVALID_QUANTITY,
                f"{entry.card.name} is listed {entry.quantity} times as {role}; a {role} is one card.",
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="903.3" if role == "commander" else "702.139a",
            )


def too_many_commanders(deck: Deck) -> Iterator[Violation]:
    """702.124g: never more than two commanders."""
    count = designated_commanders(deck)
    if count > 2:
        names = and_list(card_names(deck.commanders) or ("unknown",))
        message = f"The deck has {count} commanders ({names}); at most two are allowed."
        yield about(deck.commanders, Code.TOO_MANY_COMMANDERS, message, "702.124g")


def commander_ineligible(deck: Deck) -> Iterator[Violation]:
    """903.3, 702.124k: each commander can be one in the format (a Background only beside
    Choose a Background); who can is the format's (validator/formats.py)."""
    if designated_commanders(deck) > 2:
        return  # too_many_commanders alone (DESIGN.md)
    fmt, data = deck_format(deck), deck_format_data(deck)
    who = fmt.commanders
    paired = designated_commanders(deck) == 2
    for entry in deck.commanders:
        reason = who.reason(entry.card, data)
        if reason is None or (paired and who.half(entry.card, data)):
            continue  # a Background beside another commander is judged by partner_pairing
        if is_non_deck(entry.card):
            continue  # non_deck_card alone (DESIGN.md: it is judged by nothing else)
        yield Violation(
            Code.COMMANDER_INELIGIBLE,
            reason,
            cards=(entry.card.name,),
            lines=entry.lines,
            rule="702.124k" if is_background(entry.card) else fmt.commander_rule,
        )


def partner_pairing(deck: Deck) -> Iterator[Violation]:
    """702.124: two commanders must share one pairing ability."""
    if len(deck.commanders) != 2 or designated_commanders(deck) != 2:
        return
    first, second = (e.card for e in deck.commanders)
    who, data = deck_format(deck).commanders, deck_format_data(deck)
    for card in (first, second):
        if who.reason(card, data) is not None and not who.half(card, data):
            return  # commander_ineligible already says why
    if first.name == second.name:
        message = f"{first.name} is designated twice; the two commanders must be different cards."
    elif can_pair(first, second):
        return
    else:
        message = (
            f"{first.name} and {second.name} can't be commanders together: "
            f"{pairing_summary(first)} and {pairing_summary(second)}."
        )
    yield Violation(
        Code.PARTNER_PAIRING,
        message,
        cards=tuple(sorted({first.name, second.name})),
        lines=line_numbers(deck.commanders),
        rule="702.124",
    )


def deck_size(deck: Deck) -> Iterator[Violation]:
    """903.5a, 903.12d: exactly the format's size (100; 60 in Standard Brawl and
    Oathbreaker), commanders (and signature spells) included, companion excluded."""
    size = card_count(deck)
    fmt = deck_format(deck)
    if size != fmt.deck_size:
        yield Violation(
            Code.DECK_SIZE,
            f"The deck has {plural(size, 'card')}; {a_or_an(fmt.name)} deck has exactly {fmt.deck_size}, "
            f"{fmt.counted} and companion excluded.",
            rule=fmt.size_rule,
        )


def singleton(deck: Deck) -> Iterator[Violation]:
    """903.5b: one copy of each card but basic lands, unless its own text allows more."""
    # 903.11a: the companion may not share a name with a card in the deck either
    counted, companion = tally(deck), deck.companion
    if not counted.multiples and len(counted.names) == counted.entries and (
            companion is None or (companion.quantity == 1 and companion.card.name not in counted.names)):
        return  # no name listed twice, no card but basics in several copies: nothing to count
    zone = [*deck.commanders, *deck.main, companion] if companion else [*deck.commanders, *deck.main]
    names = [e.card.name for e in zone]
    # only names listed twice or with a quantity over one can break the rule: find those first
    multiple = [e.card for e in zone if e.quantity > 1]
    suspects = {c.name for c in multiple if "Basic" not in c.supertypes}
    if len(set(names)) != len(names):  # some name is listed on two lines or in two zones
        suspects.update(name for name, lines in Counter(names).items() if lines > 1)
    suspects = {name for name in suspects if not _non_deck_name(name, zone)}
    if not suspects:
        return
    copies: dict[str, list[Entry]] = {}
    for entry in zone:
        if entry.card.name in suspects:
            copies.setdefault(entry.card.name, []).append(entry)
    in_zone = {id(e) for e in deck.commanders}
    if deck.companion:
        in_zone.add(id(deck.companion))
    for name, entries in copies.items():
        # a commander or companion line's own quantity is invalid_quantity's business: count it once
        count = sum(1 if id(e) in in_zone else e.quantity for e in entries)
        if count < 2:
            continue
        limit = copy_limit(entries[0].card)
        if limit is None or count <= limit:
            continue
        allowed = "one copy" if limit == 1 else f"up to {limit} copies"
        yield Violation(
            Code.SINGLETON,
            f"{name} appears {count} times{included_role(name, deck)}; the deck may have {allowed}.",
            cards=(name,),
            lines=line_numbers(entries),
            rule="903.5b",
        )


def _non_deck_name(name: str, zone: list[Entry]) -> bool:
    """The named card is no deck card (non_deck_card alone judges it)."""
    return any(e.card.name == name and is_non_deck(e.card) for e in zone)


def color_identity(deck: Deck) -> Iterator[Violation]:
    """903.5c-d: every card, companion included, fits the commanders' combined identity
    (903.12e: in Brawl, a colorless commander's basic lands of one basic land type too)."""
    if not deck.commanders:
        return  # no identity to compare against; commander_missing says why
    if deck.unknown and any(u.section == "commander" for u in deck.unknown):
        return  # a commander the card data lacks: its identity is unknown, so nothing is outside it
    base = commander_identity(deck)
    wildcards = len(unchosen_commanders(deck))
    allowed = base | assumed_colors(deck, base, wildcards) if wildcards else base
    companion = deck.companion
    if tally(deck).main_identity <= allowed and (companion is None or companion.card.color_identity <= allowed):
        return  # every card fits (the main deck's identities are united once, in the Tally)
    outside = [e for e in identity_entries(deck) if not e.card.color_identity <= allowed]
    chosen = None
    if outside and not allowed and deck_format(deck).basic_land_type_choice:
        chosen = chosen_basic_land_type(outside)
    for entry in outside:
        if is_non_deck(entry.card):
            continue  # non_deck_card alone (DESIGN.md)
        if chosen is not None and basic_land_types(entry.card):
            if chosen in basic_land_types(entry.card):
                continue  # 903.12e: the chosen type, in any number
            yield Violation(
                Code.COLOR_IDENTITY,
                f"{entry.card.name} ({color_text(entry.card.color_identity)}) is outside the "
                f"{commander_word(deck)} color identity (colorless): a colorless commander allows basic lands of "
                f"one basic land type, and {chosen} (the type with the most copies) was taken as the chosen one.",
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="903.12e",
            )
            continue
        yield Violation(
            Code.COLOR_IDENTITY,
            f"{entry.card.name} ({color_text(entry.card.color_identity)}) is outside the "
            f"{commander_word(deck)} color identity ({color_text(allowed)}).",
            cards=(entry.card.name,),
            lines=entry.lines,
            rule="903.5c",
        )


def color_choice(deck: Deck) -> Iterator[Violation]:
    """903.4b: color choices name a color-choosing commander and one WUBRG letter; warn if missing."""
    commanders = {e.card.name: e for e in deck.commanders}
    for name, letter in deck.color_choices.items():
        entry = commanders.get(name)
        if entry is None or not chooses_color(entry.card):
            # a stray choice changes nothing about the deck: tell the client, don't fail the deck
            what = "is not a commander" if entry is None else "does not choose a color"
            yield Violation(
                Code.COLOR_CHOICE,
                f"A color was chosen for {name}, but {name} {what}; the choice was ignored.",
                Severity.WARNING,
                cards=(name,),
                lines=entry.lines if entry is not None else (),
                rule="903.4b",
            )
        elif letter not in COLOR_LETTERS:
            yield Violation(
                Code.COLOR_CHOICE,
                f"The color chosen for {name} ({letter!r}) is not one of W, U, B, R or G.",
                cards=(name,),
                lines=entry.lines,
                rule="903.4b",
            )
    unchosen = unchosen_commanders(deck)
    if unchosen:
        base = commander_identity(deck)
        assumed = assumed_colors(deck, base, len(unchosen))
        extra = f"the deck's {color_text(assumed)} cards were allowed" if assumed else "no extra color was needed"
        yield Violation(
            Code.COLOR_CHOICE,
            f"{and_list(c.name for c in unchosen)} chooses a color before the game, but no color was "
            f"given; one extra color per such commander is assumed and {extra}.",
            Severity.WARNING,
            cards=tuple(sorted(c.name for c in unchosen)),
            lines=line_numbers(e for e in deck.commanders if e.card in unchosen),
            rule="903.4b",
        )


def companion_ineligible(deck: Deck) -> Iterator[Violation]:
    """702.139: the companion has Companion and is not banned as a companion (Lutri); and
    only one card is the companion (702.139a: you reveal one)."""
    if deck.extra_companions:
        first = deck.companion.card.name if deck.companion else "another card"
        extra = card_names(deck.extra_companions)
        message = (f"{and_list(extra)} {is_are(deck.extra_companions)} also declared as companion, but only one "
                   f"card can be your companion; {first} was taken.")
        yield about(deck.extra_companions, Code.COMPANION_INELIGIBLE, message, "702.139a")
    if deck.companion is None or is_non_deck(deck.companion.card):
        return  # a non-deck companion is non_deck_card alone (DESIGN.md)
    card = deck.companion.card
    fmt = deck_format(deck)
    if not has_companion(card):
        reason = "has no Companion ability"
    elif card.name in fmt.banned_as_companion:
        reason = f"is banned as a companion in {fmt.name} (it is legal in the deck)"
    else:
        return
    yield Violation(
        Code.COMPANION_INELIGIBLE,
        f"{card.name} {reason}, so it can't be your companion.",
        cards=(card.name,),
        lines=deck.companion.lines,
        rule="702.139",
    )


def companion_condition(deck: Deck) -> Iterator[Violation]:
    """702.139a-b: the starting deck, commanders included, meets the companion's condition."""
    if deck.companion is None or not has_companion(deck.companion.card):
        return
    card = deck.companion.card
    condition = COMPANION_CONDITIONS.get(card.name)
    if condition is None or is_non_deck(card):
        return  # a companion we can't read yet: say nothing rather than guess
    starting = [*deck.commanders, *deck.main]
    fmt = deck_format(deck)
    failed = condition(starting, fmt)
    if failed is None:
        return
    # a non-deck card is non_deck_card alone: judge the deck again without any (rare, so
    # only on this path; leaving cards out never breaks a condition that held)
    playable = [e for e in starting if not is_non_deck(e.card)]
    if len(playable) != len(starting):
        failed = condition(playable, fmt)
        if failed is None:
            return
    offenders, why = failed
    listed = f": {and_list(card_names(offenders))}" if offenders and len(offenders) <= 10 else ""
    count = f" ({len(card_names(offenders))} cards)" if len(offenders) > 10 else ""
    message = f"The deck does not meet {card.name}'s companion condition, {why}{count}{listed}."
    yield about(offenders, Code.COMPANION_CONDITION, message, "702.139a")


def signature_spell(deck: Deck) -> Iterator[Violation]:
    """Oathbreaker: one signature spell, an instant or sorcery, per oathbreaker; with two
    oathbreakers, each spell inside its own oathbreaker's identity. A spell outside the
    combined identity is color_identity alone."""
    if not deck_format(deck).signature_spells:
        return
    oathbreakers = designated_commanders(deck)
    if not 1 <= oathbreakers <= 2:
        return  # commander_missing or too_many_commanders alone
    spells = deck.signature_spells
    unknown = sum(u.quantity for u in deck.unknown if u.section == "signature")
    count = sum(e.quantity for e in spells) + unknown
    if count < oathbreakers:
        named = and_list(card_names(deck.commanders)) if deck.commanders else "the oathbreaker"
        need = "each needs" if oathbreakers == 2 else "it needs"
        yield about(deck.commanders, Code.SIGNATURE_SPELL,
                     f"{named} {'has' if oathbreakers == 1 else 'have'} {plural(count, 'signature spell')}; "
                     f"{need} one: list an instant or sorcery under a Signature Spell header, or name it in "
                     "the request (the page's Signature spell field; signature_spells in the API; "
                     "--signature-spell in the CLI).", None)
    elif count > oathbreakers:
        yield about(spells, Code.SIGNATURE_SPELL,
                     f"The deck has {plural(count, 'signature spell')} for {plural(oathbreakers, 'oathbreaker')}; "
                     "each oathbreaker has exactly one.", None)
    wrong = [e for e in spells if not is_instant_or_sorcery(e.card) and not is_non_deck(e.card)]
    for entry in wrong:
        yield about((entry,), Code.SIGNATURE_SPELL,
                     f"{entry.card.name} is a {entry.card.type_line or 'card'}; a signature spell is an instant or "
                     "sorcery card.", None)
    if len(deck.commanders) == 2 and len(spells) == 2 and not wrong and not unknown:
        yield from _assigned_spells(deck)


def _assigned_spells(deck: Deck) -> Iterator[Violation]:
    """Two oathbreakers, two spells: one each, inside that oathbreaker's own identity."""
    first, second = (e.card.color_identity for e in deck.commanders)
    a, b = (e.card.color_identity for e in deck.signature_spells)
    if not (a | b) <= first | second:
        return  # a spell outside both identities is color_identity alone
    if (a <= first and b <= second) or (a <= second and b <= first):
        return
    yield about(deck.signature_spells, Code.SIGNATURE_SPELL,
                 f"{and_list(card_names(deck.signature_spells))} can't be given one to each of "
                 f"{and_list(card_names(deck.commanders))} inside that oathbreaker's own color identity.", None)


RULES: tuple[Rule, ...] = (
    unknown_card,
    commander_missing,
    invalid_quantity,
    too_many_commanders,
    commander_ineligible,
    partner_pairing,
    deck_size,
    singleton,
    color_identity,
    color_choice,
    legality,
    house_rules,
    companion_ineligible,
    companion_condition,
    signature_spell,
    planar_deck,
    scheme_deck,
    sideboard,
    not_in_deck,
)

# The rules whose verdict depends on the format the deck is judged in (they read
# Deck.format); the others read the deck alone. engine.judge_formats runs DECK_RULES once
# per assembled deck and FORMAT_RULES once per format.
FORMAT_RULES: tuple[Rule, ...] = (
    commander_ineligible,
    partner_pairing,
    deck_size,
    color_identity,
    legality,
    house_rules,
    companion_ineligible,
    companion_condition,
    signature_spell,
)
DECK_RULES: tuple[Rule, ...] = tuple(rule for rule in RULES if rule not in FORMAT_RULES)
# A rule's codes-only twin, where building its violations costs more than the codes (the
# all-formats block wants only each format's error codes): same answers, no messages.
CODES_ONLY: dict[Rule, Callable[[Deck], set[str]]] = {legality: legality_codes}
