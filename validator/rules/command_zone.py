"""The rules of the command zone: who commands (commander_missing, commander_ineligible,
too_many_commanders, partner_pairing), one copy each (invalid_quantity), the color a
commander chooses (color_choice), the companion (companion_ineligible, companion_condition)
and Oathbreaker's signature spells (signature_spell). Each rule takes a resolved `Deck`,
yields zero or more `Violation`s and never raises."""

from __future__ import annotations

from typing import Iterator

from validator.card_facts import (
    can_pair, chooses_color, has_companion, is_background, is_instant_or_sorcery, is_non_deck,
)
from validator.companions import COMPANION_CONDITIONS
from validator.deck import COLOR_LETTERS
from validator.deck_facts import (
    Deck, assumed_colors, commander_identity, deck_format, deck_format_data, designated_commanders,
    unchosen_commanders,
)
from validator.messages import Name, Names, Term, msg, nmsg
from validator.phrasing import about, card_names, color_text, is_oathbreaker, line_numbers, names_of, pairing_summary
from validator.violations import Code, Severity, Violation


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
            text = nmsg("{cards} chooses a color before the game, but no color was given; one extra color per such "
                        "commander is assumed and the deck's {colors} cards were allowed.",
                        "{cards} choose a color before the game, but no color was given; one extra color per such "
                        "commander is assumed and the deck's {colors} cards were allowed.", len(cards), cards=cards,
                        colors=color_text(assumed))
        else:
            text = nmsg("{cards} chooses a color before the game, but no color was given; one extra color per such "
                        "commander is assumed and no extra color was needed.",
                        "{cards} choose a color before the game, but no color was given; one extra color per such "
                        "commander is assumed and no extra color was needed.", len(cards), cards=cards)
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
                    nmsg("The deck has {spells} signature spells for {n} oathbreaker; each oathbreaker has exactly "
                         "one.",
                         "The deck has {spells} signature spells for {n} oathbreakers; each oathbreaker has exactly "
                         "one.", oathbreakers, spells=count), None)
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
