"""Builders for hand-written cards and decks (mage's DeckTester in Python), plus named cards.

`card()` reads a Scryfall-style type line so a test writes what the card says:
`card("Sol Ring", "Artifact", cost="{1}")`. `deck()` builds a resolved Deck from
{card: quantity} mappings and gives every entry a distinct line number.
"""

from __future__ import annotations

import gzip
import itertools
import json
from types import MappingProxyType
from typing import Iterable, Mapping

from validator.deck import Card, Entry, UnknownName
from validator.deck_facts import Deck

SUPERTYPES = frozenset({"Legendary", "Basic", "Snow", "World", "Token", "Ongoing"})
# Scryfall writes "Time Lord" as one two-word subtype
TWO_WORD_SUBTYPES = ("Time Lord",)


def parse_type_line(type_line: str) -> tuple[frozenset, frozenset, frozenset]:
    """(supertypes, types, subtypes) of a front-face type line such as "Legendary Creature — Elf"."""
    left, _, right = type_line.partition(" — ")
    words = left.split()
    supertypes = frozenset(w for w in words if w in SUPERTYPES)
    types = frozenset(w for w in words if w not in SUPERTYPES)
    subtypes = []
    for two in TWO_WORD_SUBTYPES:
        if two in right:
            subtypes.append(two)
            right = right.replace(two, "")
    subtypes += right.split()
    return supertypes, types, frozenset(subtypes)


def card(
    name: str,
    type_line: str = "Artifact",
    *,
    text: str | Iterable[str] = "",
    identity: str = "",
    cost: str = "",
    mana_value: float | None = None,
    pt: bool | None = None,
    **fields,
) -> Card:
    """A hand-written Card: type line, Oracle text (one string or one per face), identity letters."""
    supertypes, types, subtypes = parse_type_line(type_line.split(" // ")[0])
    faces = (text,) if isinstance(text, str) else tuple(text)
    if mana_value is None:
        mana_value = _mana_value(cost.split(" // ")[0])
    return Card(
        name=name,
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        face_texts=faces,
        mana_cost=cost,
        mana_value=float(mana_value),
        color_identity=frozenset(identity),
        has_power_toughness="Creature" in types if pt is None else pt,
        type_line=type_line.split(" // ")[0],
        **fields,
    )


def _mana_value(cost: str) -> int:
    """Mana value of a simple cost string ("{2}{W}{W}" -> 4, X counts 0)."""
    total = 0
    for symbol in cost.replace("}", "").split("{")[1:]:
        if symbol.isdigit():
            total += int(symbol)
        elif symbol != "X":
            total += 1
    return total


def legend(name: str, identity: str = "", *, text: str = "", subtypes: str = "Human", **fields) -> Card:
    """A legendary creature: the everyday commander."""
    return card(name, f"Legendary Creature — {subtypes}", text=text, identity=identity, **fields)


_lines = itertools.count(1)


def entry(c: Card, quantity: int = 1, lines: tuple[int, ...] | None = None) -> Entry:
    """An Entry with a fresh line number unless given."""
    return Entry(c, quantity, (next(_lines),) if lines is None else lines)


def _entries(cards: Mapping[Card, int] | Iterable[Card] | None) -> tuple[Entry, ...]:
    """Entries from {card: quantity} or an iterable of cards (one copy each)."""
    if cards is None:
        return ()
    if isinstance(cards, Mapping):
        return tuple(entry(c, q) for c, q in cards.items())
    return tuple(entry(c) for c in cards)


def filler(count: int, *, identity: str = "", prefix: str = "Filler") -> dict[Card, int]:
    """`count` distinct, legal, colorless-or-`identity` artifacts: padding for a 100-card deck."""
    return {card(f"{prefix} {i}", "Artifact", identity=identity, cost="{2}"): 1 for i in range(count)}


def deck(
    commander: Card | None = None,
    *,
    commanders: Iterable[Card] = (),
    main: Mapping[Card, int] | Iterable[Card] | None = None,
    companion: Card | None = None,
    sideboard: Mapping[Card, int] | Iterable[Card] | None = None,
    planar: Mapping[Card, int] | Iterable[Card] | None = None,
    schemes: Mapping[Card, int] | Iterable[Card] | None = None,
    unknown: Iterable[UnknownName] = (),
    color_choices: Mapping[str, str] | None = None,
    signature_spells: Iterable[Card] = (),
    game_format=None,
    format_data=None,
) -> Deck:
    """A resolved Deck: deck(commander=ATRAXA, main={FOREST: 99}). `signature_spells` join
    the main deck as Oathbreaker's signature spells; `game_format` (a validator.formats
    Format) and `format_data` are what it is judged in and with."""
    zone = ([commander] if commander else []) + list(commanders)
    spells = tuple(entry(c) for c in signature_spells)
    return Deck(
        commanders=tuple(entry(c) for c in zone),
        main=_entries(main) + spells,
        companion=entry(companion) if companion else None,
        sideboard=_entries(sideboard),
        planar=_entries(planar),
        schemes=_entries(schemes),
        unknown=tuple(unknown),
        color_choices=MappingProxyType(dict(color_choices or {})),
        signature_spells=spells,
        format=game_format,
        format_data=format_data,
    )


def full_deck(*commanders: Card, main: Mapping[Card, int] | None = None, size: int = 100, **kwargs) -> Deck:
    """A deck of `size` cards (100): the commanders, `main`, signature spells, and Wastes to fill the rest."""
    main = dict(main or {})
    spells = kwargs["signature_spells"] = tuple(kwargs.get("signature_spells", ()))
    missing = size - len(commanders) - sum(main.values()) - len(spells)
    if missing > 0:
        main[WASTES] = main.get(WASTES, 0) + missing
    return deck(commanders=commanders, main=main, **kwargs)


# --- named cards ---------------------------------------------------------------------

FOREST = card("Forest", "Basic Land — Forest", text="({T}: Add {G}.)", identity="G")
WASTES = card("Wastes", "Basic Land", text="{T}: Add {C}.")
SNOW_FOREST = card("Snow-Covered Forest", "Basic Snow Land — Forest", text="({T}: Add {G}.)", identity="G")
SOL_RING = card("Sol Ring", "Artifact", text="{T}: Add {C}{C}.", cost="{1}")
COMMAND_TOWER = card("Command Tower", "Land", text="{T}: Add one mana of any color in your commander's color identity.")
LIGHTNING_BOLT = card("Lightning Bolt", "Instant", text="Lightning Bolt deals 3 damage to any target.", identity="R", cost="{R}")
ATRAXA = legend(
    "Atraxa, Praetors' Voice", "WUBG", subtypes="Phyrexian Angel Horror",
    text="Flying, vigilance, deathtouch, lifelink\nAt the beginning of your end step, proliferate.",
    cost="{G}{W}{U}{B}",
)


# --- cards several test modules use (each module imports them from here) ----------

# commanders and pairings
NISSA = card("Nissa, Who Shakes the World", "Legendary Planeswalker — Nissa", identity="G",
             text="Whenever you tap a Forest for mana, add an additional {G}.")
WESTVALE = card(
    "Westvale Abbey // Ormendahl, Profane Prince", "Land // Legendary Creature — Demon",
    text=("{T}: Add {C}.", "Flying, lifelink, indestructible, haste"), layout="transform",
)
BACKGROUND = card("Raised by Giants", "Legendary Enchantment — Background", identity="G",
                  text="Commander creatures you own have base power and toughness 10/10.")
WILSON = legend("Wilson, Refined Grizzly", "G", text="Choose a Background (You can have a Background as a second commander.)")
AKIRI = legend("Akiri, Line-Slinger", "RW", text="First strike, vigilance\nPartner (You can have two commanders if both have partner.)")
PIR = legend("Pir, Imaginative Rascal", "G", text="Partner with Toothy, Imaginary Friend (When this creature enters, ...)")
TOOTHY = legend("Toothy, Imaginary Friend", "U", text="Partner with Pir, Imaginative Rascal (When this creature enters, ...)")


def companion(name: str, identity: str, condition: str, cost: str = "{3}") -> Card:
    """A companion creature with the given condition line."""
    return card(name, "Legendary Creature — Beast", identity=identity, cost=cost,
                text=f"Companion — {condition} (If this card is your chosen companion, ...)\nVigilance")


GYRUDA = companion("Gyruda, Doom of Depths", "UB", "Your starting deck contains only cards with even mana value.")
JEGANTHA = companion("Jegantha, the Wellspring", "RG", "No card in your starting deck has more than one of the same mana symbol in its mana cost.")
LUTRI = companion("Lutri, the Spellchaser", "UR", "Each nonland card in your starting deck has a different name.")
UMORI = companion("Umori, the Collector", "BG", "Each nonland card in your starting deck shares a card type.")
YORION = companion("Yorion, Sky Nomad", "WU", "Your starting deck contains at least twenty cards more than the minimum deck size.")
ZIRDA = companion("Zirda, the Dawnwaker", "RW", "Each permanent card in your starting deck has an activated ability.")
# deck rules: copy limits, color choices, legality, objects that are no deck card
RATS = card("Relentless Rats", "Creature — Rat", identity="B", cost="{1}{B}{B}",
            text="Relentless Rats gets +1/+1 for each other creature named Relentless Rats.\n"
            "A deck can have any number of cards named Relentless Rats.")
DWARVES = card("Seven Dwarves", "Creature — Dwarf", identity="R", cost="{1}{R}",
               text="This creature gets +1/+1 for each other creature named Seven Dwarves you control.\n"
               "A deck can have up to seven cards named Seven Dwarves.")
SYNDIC = card("Syndic of Tithes", "Creature — Human Cleric", identity="W", cost="{1}{W}",
              text="Extort (Whenever you cast a spell, you may pay {W/B}. ...)")
PIPER = legend("The Prismatic Piper", subtypes="Shapeshifter", text=(
    "If The Prismatic Piper is your commander, choose a color before the game begins. "
    "The Prismatic Piper is the chosen color.\nPartner (You can have two commanders if both have partner.)"))
BANNED = card("Mana Crypt", "Artifact", legality="banned", text="{T}: Add {C}{C}.")
PLANE = card("Tazeem", "Plane — Zendikar", layout="planar", legality="not_legal")
TOKEN = card("Goblin", "Token Creature — Goblin", layout="token", legality="not_legal")


# --- real Scryfall objects --------------------------------------------------------


def to_card(obj: dict) -> Card:
    """A minimal Scryfall card object -> Card: front-face types, every face's text.

    Deliberately tiny and separate from card_data.convert (the real converter is
    card_data's job): it reads only what the rules need, front face first.
    """
    faces = obj.get("card_faces") or [obj]
    front = faces[0]
    supertypes, types, subtypes = parse_type_line(front.get("type_line", obj.get("type_line", "")))
    mana_cost = obj.get("mana_cost") or " // ".join(f.get("mana_cost", "") for f in faces if f.get("mana_cost"))
    meld_result = any(
        part.get("component") == "meld_result" and part.get("name") == obj["name"] for part in obj.get("all_parts", ())
    )
    return Card(
        name=obj["name"],
        types=types,
        supertypes=supertypes,
        subtypes=subtypes,
        face_texts=tuple(f.get("oracle_text", "") for f in faces),
        mana_cost=mana_cost,
        mana_value=float(obj.get("cmc", 0)),
        color_identity=frozenset(obj.get("color_identity", ())),
        layout=obj.get("layout", "normal"),
        legality=obj.get("legalities", {}).get("commander", "not_legal"),
        legalities=obj.get("legalities", {}),
        has_power_toughness="power" in front,
        game_changer=bool(obj.get("game_changer")),
        keywords=frozenset(obj.get("keywords", ())),
        type_line=front.get("type_line", ""),
        is_meld_result=meld_result,
    )


def load_real_cards(shared_dir, names) -> dict[str, Card]:
    """Real cards from ../shared/carddata by canonical name; every name must be there."""
    wanted = set(names)
    cards = {}
    with gzip.open(shared_dir / "carddata" / "oracle-cards.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            obj = json.loads(line)
            if obj["name"] in wanted:
                cards[obj["name"]] = to_card(obj)
    missing = wanted - cards.keys()
    assert not missing, f"not in the sample: {missing}"
    return cards


# --- decklist texts ----------------------------------------------------------------

ILLEGAL_DECK = """\
Commander
1 Atraxa, Praetors' Voice

Deck
1 Mana Crypt
1 Lightning Bolt
1 Sol Rnig
1 Sol Ring
1 Sol Ring
92 Forest
"""
ILLEGAL_EXPECTED = {
    "banned": (["Mana Crypt"], [5]),
    "color_identity": (["Lightning Bolt"], [6]),
    "unknown_card": (["Sol Rnig"], [7]),
    "singleton": (["Sol Ring"], [8, 9]),
}


# --- decklists for the service's tests (API, page, CLI) -----------------------------------

COMMANDER = "Atraxa, Praetors' Voice"
SPELLS = (
    "Sol Ring", "Arcane Signet", "Command Tower", "Counterspell", "Brainstorm",
    "Swords to Plowshares", "Path to Exile", "Demonic Tutor", "Cultivate", "Beast Within",
    "Eternal Witness", "Birds of Paradise", "Mortify", "Vindicate", "Putrefy",
    "Assassin's Trophy", "Anguished Unmaking", "Rhystic Study", "Smothering Tithe", "Wrath of God",
)
BASICS = (("Forest", 20), ("Island", 20), ("Plains", 20), ("Swamp", 19))


def deck_text(*, commander: str = COMMANDER, spells=SPELLS, basics=BASICS, extra: tuple[str, ...] = ()) -> str:
    """A plain-text list: a Commander section, then the deck (line numbers are predictable)."""
    lines = ["Commander", f"1 {commander}", "", "Deck"]
    lines += [f"1 {name}" for name in spells]
    lines += [f"{count} {name}" for name, count in basics]
    lines += list(extra)
    return "\n".join(lines) + "\n"


# Spells with nothing a Commander Bracket counts (all in tests/fixtures/cards.jsonl).
PLAIN_SPELLS = ("Sol Ring", "Arcane Signet", "Command Tower", "Brainstorm", "Swords to Plowshares", "Path to Exile",
                "Cultivate", "Beast Within", "Eternal Witness", "Birds of Paradise", "Mortify", "Putrefy")


def plain_deck(*extra: str, commander: str = COMMANDER) -> str:
    """deck_text() with nothing a bracket counts, plus the `extra` spells."""
    return deck_text(commander=commander, spells=PLAIN_SPELLS + extra)


def load_bracket_lists(db) -> None:
    """Both bracket lists from tests/fixtures/brackets into the store at db, as `cards import`
    does with MASS_LAND_DENIAL_FILE / COMBOS_FILE (no network)."""
    from pathlib import Path

    from card_data import BracketSources
    from card_data.lists import refresh as bracket_lists
    from card_data.store import list_tables as bracket_tables

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "brackets"
    results = bracket_lists.refresh(db, BracketSources(
        mass_land_denial_file=str(folder / "mass-land-denial.txt"), combos_file=str(folder / "combos.txt")),
        network=False)
    assert {kind: result.status for kind, result in results.items()} == {
        bracket_tables.MASS_LAND_DENIAL: "updated", bracket_tables.TWO_CARD_COMBOS: "updated"}


# --- Commander-family formats (validator/formats.py) ---------------------------------

FORMAT_KEYS = ("commander", "duel", "brawl", "standardbrawl", "oathbreaker", "paupercommander", "predh")


def everywhere(c: Card, **values: str) -> Card:
    """The card with a value for every format's legality key: legal, but for `values`
    (`everywhere(SOL_RING, duel="banned")`); a value of None leaves that key out."""
    from dataclasses import replace

    legalities = {key: "legal" for key in FORMAT_KEYS}
    legalities.update(values)
    kept = {key: value for key, value in legalities.items() if value is not None}
    return replace(c, legality=kept.get("commander", "not_legal"), legalities=kept)


# --- card names in other languages (issue 23) ------------------------------------------

# Hand-made Scryfall objects of other languages for cards of tests/fixtures/cards.jsonl.
PRINTED_NAMES = "names/printed-names.jsonl"


def load_card_names(db) -> None:
    """The names of tests/fixtures/names/printed-names.jsonl into the store at db, as
    `cards import-names` does."""
    from pathlib import Path

    from card_data.names import sync as names_sync

    status = names_sync.import_names(db, Path(__file__).resolve().parents[1] / "fixtures" / PRINTED_NAMES,
                                     updated_at="2026-11-29T00:00:00+00:00")
    assert status.loaded and status.names > 20


# deck_text()'s 100-card list with names in other languages: Spanish commander and spells,
# German "Sol-Ring" (English by the loose match: punctuation forgiven), French Île.
FOREIGN_SPELLS = tuple({"Counterspell": "Contrahechizo", "Swords to Plowshares": "Espadas en rejas de arado",
                        "Sol Ring": "Sol-Ring"}.get(name, name) for name in SPELLS)
FOREIGN_BASICS = (("Forest", 20), ("Isla", 10), ("Île", 10), ("Plains", 20), ("Swamp", 19))
