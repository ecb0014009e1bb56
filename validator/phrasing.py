"""The sentences violation messages share (as validator.messages Texts: ids and parameters,
rendered in the answer's language by the service), color letters, and the sorted names and
line numbers a violation carries. Pure data building: no rule is decided here."""

from __future__ import annotations

from typing import Iterable, Sequence

from validator.card_facts import is_background, is_doctor, pairing_kinds
from validator.deck import Card, Entry, UnknownName, wubrg
from validator.deck_facts import Deck, deck_format
from validator.messages import Name, Names, Term, Text, Value, msg, nmsg
from validator.violations import Violation

COLORLESS = Term("colorless")
# The labels of Partner—[text] (702.124i-m), as the rules' vocabulary translates them.
PARTNER_LABELS = {
    "Friends forever": Term("Friends forever"), "Character select": Term("Character select"),
    "Father & son": Term("Father & son"), "Survivors": Term("Survivors"),
}


def color_text(colors: Iterable[str]) -> Value:
    """WUBRG letters for messages, or the word "colorless"."""
    return "".join(wubrg(colors)) or COLORLESS


def card_names(entries: Iterable[Entry]) -> tuple[str, ...]:
    """Sorted distinct card names."""
    return tuple(sorted({e.card.name for e in entries}))


def line_numbers(entries: Iterable[Entry | UnknownName]) -> tuple[int, ...]:
    """Sorted line numbers of entries."""
    return tuple(sorted({line for e in entries for line in e.lines}))


def or_list(names: tuple[str, ...]) -> str:
    """"A", "A or B", "A, B or C" (English only: the house rules' one list of offered names)."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def is_oathbreaker(deck: Deck) -> bool:
    """The deck's format calls its commanders oathbreakers (their messages say so)."""
    return deck_format(deck).role == "oathbreaker"


def pairing_summary(card: Card) -> tuple[Text, ...]:
    """What pairs a card, one sentence an ability: "X has Partner." / "X is a Background." /
    "X has no pairing ability."."""
    name = Name(card.name)
    said = []
    for kind, argument in pairing_kinds(card):
        if kind == "partner":
            said.append(msg("{card} has Partner.", card=name))
        elif kind == "partner—":
            said.append(msg("{card} has Partner—{label}.", card=name, label=PARTNER_LABELS.get(argument, argument)))
        elif kind == "partner with":
            said.append(msg("{card} has Partner with {partner}.", card=name, partner=Name(argument)))
        elif kind == "choose a background":
            said.append(msg("{card} has Choose a Background.", card=name))
        else:
            said.append(msg("{card} has Doctor's companion.", card=name))
    if said:
        return tuple(said)
    if is_background(card):
        return (msg("{card} is a Background.", card=name),)
    if is_doctor(card):
        return (msg("{card} is a Doctor.", card=name),)
    return (msg("{card} has no pairing ability.", card=name),)


def included_role(name: str, deck: Deck) -> str | None:
    """Which of the deck's roles a repeated name also fills ("commander", "oathbreaker",
    "signature spell", "companion"), or None."""
    if any(e.card.name == name for e in deck.commanders):
        return deck_format(deck).role
    if any(e.card.name == name for e in deck.signature_spells):
        return "signature spell"
    if deck.companion and deck.companion.card.name == name:
        return "companion"
    return None


def inferred(names: list[str], unknown: list[str], spell: str | None, oathbreaker: bool, source: Value,
             size: int) -> Text:
    """commander_inferred's sentences: who was taken from where (and the signature spell),
    why they can command (or that the card data does not know them), the deck's size then."""
    taken = Names(names)
    if spell is not None:
        text = msg("No oathbreaker was marked; {cards} taken as oathbreaker and {spell} as its signature spell from "
                   "{source}.", cards=taken, spell=Name(spell), source=source)
    elif oathbreaker:
        text = msg("No oathbreaker was marked; {cards} taken as oathbreaker from {source}.", cards=taken, source=source)
    else:
        text = msg("No commander was marked; {cards} taken as commander from {source}.", cards=taken, source=source)
    if unknown:  # the layout sets the block apart; the card data cannot say it can command
        how = nmsg("{cards} is not in the card data, so only the layout says so.",
                   "{cards} are not in the card data, so only the layout says so.", len(unknown), cards=Names(unknown))
    elif len(names) == 1:
        how = msg("It can be an oathbreaker.") if oathbreaker else msg("It can be a commander.")
    else:
        how = msg("They can be oathbreakers together.") if oathbreaker else msg("They can be commanders together.")
    return text.then(how, nmsg("The deck then has {n} card.", "The deck then has {n} cards.", size))


def about(entries: Sequence[Entry], code: str, text: Text, rule: str | None) -> Violation:
    """An error naming the entries' cards and lines, sorted."""
    return Violation(code, text, cards=card_names(entries), lines=line_numbers(entries), rule=rule)


def names_of(entries: Iterable[Entry]) -> Names:
    """The entries' distinct card names, sorted, as a list parameter."""
    return Names(card_names(entries))
