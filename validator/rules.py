"""Every Commander deck-construction rule: one generator per rule, registered in RULES.

Each rule takes a resolved `Deck`, yields zero or more `Violation`s and never raises.
What a card is (eligibility, pairing abilities, copy limits...) comes from
validator/card_facts.py, what the deck adds up to (count, identity) from
validator/deck_facts.py, the companion conditions from validator/companions.py and the
messages' shared sentences from validator/phrasing.py: this module decides and reports. Two
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
from validator.messages import AnyOf, Name, Names, Term, Text, msg, nmsg
from validator.phrasing import (
    LAND_TYPES, about, card_names, color_text, included_role, is_oathbreaker, line_numbers, names_of, pairing_summary,
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
        text = msg("No card is named \"{name}\".", name=name)
        if suggestions:
            text = text.then(msg("Did you mean {cards}?", cards=AnyOf(suggestions)))
        yield Violation(
            Code.UNKNOWN_CARD,
            text,
            cards=(name,),
            lines=line_numbers(entries),
            suggestions=suggestions,
        )


def _ambiguous(name: str, entries: list) -> Violation:
    """A name printed in another language for several cards: which one is meant is not guessed."""
    candidates = entries[0].suggestions
    return Violation(
        Code.AMBIGUOUS_CARD,
        nmsg("\"{name}\" is the printed name of {n} different card: {cards}.",
             "\"{name}\" is the printed name of {n} different cards: {cards}.",
             len(candidates), name=name, cards=AnyOf(candidates))
        .then(msg("Write the card's English name (or another printed name of it).")),
        cards=(name,),
        lines=line_numbers(entries),
        suggestions=candidates,
    )


def commander_missing(deck: Deck) -> Iterator[Violation]:
    """903.3: a Commander deck needs a designated commander (an Oathbreaker deck an oathbreaker)."""
    if not designated_commanders(deck):
        if is_oathbreaker(deck):
            text = msg("No oathbreaker is designated; mark one in the list (a Commander header above it, *CMDR* "
                       "after it, or a COMMANDER: line) or name it in the request (commanders; --commander in the "
                       "CLI).")
        else:
            text = msg("No commander is designated; mark one in the list (a Commander header above it, *CMDR* "
                       "after it, or a COMMANDER: line) or name it in the request (commanders; --commander in the "
                       "CLI).")
        yield Violation(
            Code.COMMANDER_MISSING,
            text,
            rule="903.3",
        )


def invalid_quantity(deck: Deck) -> Iterator[Violation]:
    """A commander or companion line asks for more than one copy of the card."""
    zone = [(e, "commander") for e in deck.commanders]
    if deck.companion:
        zone.append((deck.companion, "companion"))
    for entry, role in zone:
        if entry.quantity > 1:
            if role == "commander":
                text = nmsg("{card} is listed {n} time as commander; a commander is one card.",
                            "{card} is listed {n} times as commander; a commander is one card.",
                            entry.quantity, card=Name(entry.card.name))
            else:
                text = nmsg("{card} is listed {n} time as companion; a companion is one card.",
                            "{card} is listed {n} times as companion; a companion is one card.",
                            entry.quantity, card=Name(entry.card.name))
            yield Violation(
                Code.INVALID_QUANTITY,
                text,
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="903.3" if role == "commander" else "702.139a",
            )


def too_many_commanders(deck: Deck) -> Iterator[Violation]:
    """702.124g: never more than two commanders."""
    count = designated_commanders(deck)
    if count > 2:
        if deck.commanders:
            text = nmsg("The deck has {n} commander ({cards}); at most two are allowed.",
                        "The deck has {n} commanders ({cards}); at most two are allowed.",
                        count, cards=names_of(deck.commanders))
        else:
            text = nmsg("The deck has {n} commander; at most two are allowed.",
                        "The deck has {n} commanders; at most two are allowed.", count)
        yield about(deck.commanders, Code.TOO_MANY_COMMANDERS, text, "702.124g")


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
        text = msg("{card} is designated twice; the two commanders must be different cards.", card=Name(first.name))
    elif can_pair(first, second):
        return
    else:
        text = msg("{first} and {second} can't be commanders together.", first=Name(first.name),
                   second=Name(second.name)).then(*pairing_summary(first), *pairing_summary(second))
    yield Violation(
        Code.PARTNER_PAIRING,
        text,
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
        if fmt.signature_spells:
            text = nmsg("The deck has {n} card; an {format} deck has exactly {size}, oathbreakers and signature "
                        "spells included and companion excluded.",
                        "The deck has {n} cards; an {format} deck has exactly {size}, oathbreakers and signature "
                        "spells included and companion excluded.",
                        size, format=Term(fmt.name), size=fmt.deck_size)
        else:
            text = nmsg("The deck has {n} card; a {format} deck has exactly {size}, commanders included and "
                        "companion excluded.",
                        "The deck has {n} cards; a {format} deck has exactly {size}, commanders included and "
                        "companion excluded.",
                        size, format=Term(fmt.name), size=fmt.deck_size)
        yield Violation(
            Code.DECK_SIZE,
            text,
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
        yield Violation(
            Code.SINGLETON,
            _copies(name, count, limit, included_role(name, deck)),
            cards=(name,),
            lines=line_numbers(entries),
            rule="903.5b",
        )


def _copies(name: str, count: int, limit: int, role: str | None) -> Text:
    """singleton's sentence: how many copies, which role the card also fills, how many may be."""
    card = Name(name)
    if limit != 1:
        if role is None:
            return nmsg("{card} appears {n} times; the deck may have up to {limit} copies.",
                        "{card} appears {n} times; the deck may have up to {limit} copies.", count, card=card,
                        limit=limit)
        return nmsg("{card} appears {n} times ({role} included); the deck may have up to {limit} copies.",
                    "{card} appears {n} times ({role} included); the deck may have up to {limit} copies.", count,
                    card=card, limit=limit, role=Term(role))
    if role is None:
        return nmsg("{card} appears {n} times; the deck may have one copy.",
                    "{card} appears {n} times; the deck may have one copy.", count, card=card)
    return nmsg("{card} appears {n} times ({role} included); the deck may have one copy.",
                "{card} appears {n} times ({role} included); the deck may have one copy.", count, card=card,
                role=Term(role))


# The roles a repeated card may also fill (singleton says which), as each language names them.
ROLES = (Term("commander"), Term("oathbreaker"), Term("signature spell"), Term("companion"))


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
                nmsg("{card} ({colors}) is outside the commander's color identity (colorless): a colorless "
                     "commander allows basic lands of one basic land type, and {type} (the type with the most "
                     "copies) was taken as the chosen one.",
                     "{card} ({colors}) is outside the commanders' color identity (colorless): a colorless "
                     "commander allows basic lands of one basic land type, and {type} (the type with the most "
                     "copies) was taken as the chosen one.",
                     len(deck.commanders), card=Name(entry.card.name), colors=color_text(entry.card.color_identity),
                     type=LAND_TYPES.get(chosen, chosen)),
                cards=(entry.card.name,),
                lines=entry.lines,
                rule="903.12e",
            )
            continue
        yield Violation(
            Code.COLOR_IDENTITY,
            _outside(deck, entry, allowed),
            cards=(entry.card.name,),
            lines=entry.lines,
            rule="903.5c",
        )


def _outside(deck: Deck, entry: Entry, allowed: frozenset[str]) -> Text:
    """color_identity's sentence: the card, its colors, whose identity and its colors."""
    card, colors, identity = Name(entry.card.name), color_text(entry.card.color_identity), color_text(allowed)
    if is_oathbreaker(deck):
        return nmsg("{card} ({colors}) is outside the oathbreaker's color identity ({identity}).",
                    "{card} ({colors}) is outside the oathbreakers' color identity ({identity}).",
                    len(deck.commanders), card=card, colors=colors, identity=identity)
    return nmsg("{card} ({colors}) is outside the commander's color identity ({identity}).",
                "{card} ({colors}) is outside the commanders' color identity ({identity}).",
                len(deck.commanders), card=card, colors=colors, identity=identity)


def color_choice(deck: Deck) -> Iterator[Violation]:
    """903.4b: color choices name a color-choosing commander and one WUBRG letter; warn if missing."""
    commanders = {e.card.name: e for e in deck.commanders}
    for name, letter in deck.color_choices.items():
        entry = commanders.get(name)
        if entry is None or not chooses_color(entry.card):
            # a stray choice changes nothing about the deck: tell the client, don't fail the deck
            if entry is None:
                text = msg("A color was chosen for {card}, but {card} is not a commander; the choice was ignored.",
                           card=Name(name))
            else:
                text = msg("A color was chosen for {card}, but {card} does not choose a color; the choice was "
                           "ignored.", card=Name(name))
            yield Violation(
                Code.COLOR_CHOICE,
                text,
                Severity.WARNING,
                cards=(name,),
                lines=entry.lines if entry is not None else (),
                rule="903.4b",
            )
        elif letter not in COLOR_LETTERS:
            yield Violation(
                Code.COLOR_CHOICE,
                msg("The color chosen for {card} ({letter}) is not one of W, U, B, R or G.", card=Name(name),
                    letter=repr(letter)),
                cards=(name,),
                lines=entry.lines,
                rule="903.4b",
            )
    unchosen = unchosen_commanders(deck)
    if unchosen:
        base = commander_identity(deck)
        assumed = assumed_colors(deck, base, len(unchosen))
        cards = Names(sorted(c.name for c in unchosen))
        if assumed:
            text = msg("{cards} chooses a color before the game, but no color was given; one extra color per such "
                       "commander is assumed and the deck's {colors} cards were allowed.", cards=cards,
                       colors=color_text(assumed))
        else:
            text = msg("{cards} chooses a color before the game, but no color was given; one extra color per such "
                       "commander is assumed and no extra color was needed.", cards=cards)
        yield Violation(
            Code.COLOR_CHOICE,
            text,
            Severity.WARNING,
            cards=tuple(sorted(c.name for c in unchosen)),
            lines=line_numbers(e for e in deck.commanders if e.card in unchosen),
            rule="903.4b",
        )


def companion_ineligible(deck: Deck) -> Iterator[Violation]:
    """702.139: the companion has Companion and is not banned as a companion (Lutri); and
    only one card is the companion (702.139a: you reveal one)."""
    if deck.extra_companions:
        extra = card_names(deck.extra_companions)
        if deck.companion:
            text = nmsg("{cards} is also declared as companion, but only one card can be your companion; {first} "
                        "was taken.",
                        "{cards} are also declared as companion, but only one card can be your companion; {first} "
                        "was taken.", len(extra), cards=Names(extra), first=Name(deck.companion.card.name))
        else:
            text = nmsg("{cards} is also declared as companion, but only one card can be your companion; another "
                        "card was taken.",
                        "{cards} are also declared as companion, but only one card can be your companion; another "
                        "card was taken.", len(extra), cards=Names(extra))
        yield about(deck.extra_companions, Code.COMPANION_INELIGIBLE, text, "702.139a")
    if deck.companion is None or is_non_deck(deck.companion.card):
        return  # a non-deck companion is non_deck_card alone (DESIGN.md)
    card = deck.companion.card
    fmt = deck_format(deck)
    if not has_companion(card):
        text = msg("{card} has no Companion ability, so it can't be your companion.", card=Name(card.name))
    elif card.name in fmt.banned_as_companion:
        text = msg("{card} is banned as a companion in {format} (it is legal in the deck), so it can't be your "
                   "companion.", card=Name(card.name), format=Term(fmt.name))
    else:
        return
    yield Violation(
        Code.COMPANION_INELIGIBLE,
        text,
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
    text = msg("The deck does not meet {card}'s companion condition.", card=Name(card.name)).then(why)
    names = card_names(offenders)
    if len(offenders) > 10:
        text = text.then(nmsg("{n} card breaks it.", "{n} cards break it.", len(names)))
    elif offenders:
        text = text.then(nmsg("The card that breaks it: {cards}.", "The cards that break it: {cards}.",
                              len(names), cards=Names(names)))
    yield about(offenders, Code.COMPANION_CONDITION, text, "702.139a")


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
        how = msg("List an instant or sorcery under a Signature Spell header, or name it in the request (the "
                  "page's Signature spell field; signature_spells in the API; --signature-spell in the CLI).")
        if oathbreakers == 2:
            text = nmsg("{cards} have {n} signature spell; each needs one.",
                        "{cards} have {n} signature spells; each needs one.", count, cards=names_of(deck.commanders))
        elif deck.commanders:
            text = nmsg("{cards} has {n} signature spell; it needs one.",
                        "{cards} has {n} signature spells; it needs one.", count, cards=names_of(deck.commanders))
        else:
            text = nmsg("The oathbreaker has {n} signature spell; it needs one.",
                        "The oathbreaker has {n} signature spells; it needs one.", count)
        yield about(deck.commanders, Code.SIGNATURE_SPELL, text.then(how), None)
    elif count > oathbreakers:
        yield about(spells, Code.SIGNATURE_SPELL,
                    nmsg("The deck has {n} signature spells for {oathbreakers} oathbreaker; each oathbreaker has "
                         "exactly one.",
                         "The deck has {n} signature spells for {oathbreakers} oathbreakers; each oathbreaker has "
                         "exactly one.", count, oathbreakers=oathbreakers), None)
    wrong = [e for e in spells if not is_instant_or_sorcery(e.card) and not is_non_deck(e.card)]
    for entry in wrong:
        yield about((entry,), Code.SIGNATURE_SPELL,
                    msg("{card} is a {type}; a signature spell is an instant or sorcery card.",
                        card=Name(entry.card.name), type=entry.card.type_line or Term("card")), None)
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
                msg("{spells} can't be given one to each of {oathbreakers} inside that oathbreaker's own color "
                    "identity.", spells=names_of(deck.signature_spells), oathbreakers=names_of(deck.commanders)),
                None)


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
