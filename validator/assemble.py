"""From a parsed Decklist and resolved cards to the Deck the rules look at, in a format.

The request's `commanders`/`companion` (and, in Oathbreaker, `signature_spells`) override
what the text says (DESIGN.md): a named card that is already in the list is that card
moved to the command zone, not a second copy; one that is not in the list is added.
Lines naming the same canonical card in one section (say "Lim-Dul's Vault" and
"Lim-Dûl's Vault") become one Entry with both lines.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final, Iterable, Mapping, Sequence

from validator.deck import Card, Entry, UnknownName
from validator.deck_facts import Deck
from validator.decklist import NOBODY, Candidate, Decklist, Designation, ListEntry, Section
from validator.card_facts import can_pair, has_companion, is_instant_or_sorcery
from validator.formats import COMMANDER, NO_FORMAT_DATA, Format, FormatData, HouseRules
from validator.phrasing import inferred
from validator.violations import Code, Severity, Violation

COUNTED = (Section.COMMANDER, Section.MAIN, Section.SIGNATURE)  # the sections of the 100 (or 60)
# Where an override's card is looked for in the list, most specific first.
COMMANDER_SOURCES = (Section.COMMANDER, Section.MAIN, Section.COMPANION, Section.SIDEBOARD, Section.MAYBEBOARD)
COMPANION_SOURCES = (Section.COMPANION, Section.SIDEBOARD, Section.MAYBEBOARD, Section.MAIN)
SIGNATURE_SOURCES = (Section.SIGNATURE, Section.MAIN, Section.COMMANDER, Section.SIDEBOARD, Section.MAYBEBOARD)
_MAIN: Final = Section.MAIN  # Final: a constant in C, not a module look-up per entry


# (name as typed, section) -> [copies, lines] of a name no card answers to
_Unknown = dict[tuple[str, str], list[Any]]


class _Pile:
    """One section being built: canonical name -> its Entry (lines in order), in list order."""

    def __init__(self) -> None:
        self.slots: dict[str, Entry] = {}
        # name -> [copies, lines] of a card's later lines, kept aside by add_line until settle()
        self.repeats: dict[str, list[Any]] = {}

    def add_line(self, card: Card, quantity: int, line: int) -> None:
        """One list line's copies. A card listed again is set aside and merged once, by
        settle(): merging each repeat at once re-sorted all its lines every time (a list of
        140,000 `1 Opt` lines took over two minutes)."""
        slot = self.slots.get(card.name)
        if slot is None:
            self.slots[card.name] = Entry(card, quantity, (line,))
        elif (repeat := self.repeats.get(card.name)) is None:
            self.repeats[card.name] = [quantity, [line]]
        else:
            repeat[0] += quantity
            repeat[1].append(line)

    def settle(self) -> None:
        """Merge the lines add_line set aside into their Entries (lines in order)."""
        for name, (quantity, lines) in self.repeats.items():
            slot = self.slots[name]
            self.slots[name] = Entry(slot.card, slot.quantity + quantity, tuple(sorted((*slot.lines, *lines))))
        self.repeats = {}

    def add(self, card: Card, quantity: int, lines: tuple[int, ...]) -> None:
        """Add copies of a card (lines in order), merging with earlier lines naming the same
        canonical card at once (the few moves of an override; list lines use add_line)."""
        slot = self.slots.get(card.name)
        if slot is None:
            self.slots[card.name] = Entry(card, quantity, lines)
        else:
            self.slots[card.name] = Entry(slot.card, slot.quantity + quantity, tuple(sorted(slot.lines + lines)))

    def take_one(self, name: str) -> tuple[Card, tuple[int, ...]] | None:
        """Remove one copy of the named card; returns it and its lines, or None if absent."""
        slot = self.slots.get(name)
        if slot is None:
            return None
        if slot.quantity <= 1:
            del self.slots[name]
        else:
            self.slots[name] = Entry(slot.card, slot.quantity - 1, slot.lines)
        return slot.card, slot.lines

    def take_all(self) -> list[Entry]:
        """Remove and return every Entry."""
        slots, self.slots = list(self.slots.values()), {}
        return slots

    def entries(self) -> tuple[Entry, ...]:
        """The section as Entries."""
        return tuple(self.slots.values())


def assemble(decklist: Decklist, cards: Mapping[str, Card], suggestions: Mapping[str, Sequence[str]] | None = None,
             designation: Designation = NOBODY, *, game_format: Format = COMMANDER,
             format_data: FormatData | None = None, house_rules: HouseRules | None = None) -> Deck:
    """Build the Deck from list entries resolved through `cards` (keyed by the exact names
    typed); the designation's commanders and companion override what the list marks.

    `game_format` is the format the deck is judged in (Deck.format), `format_data` what its
    rules are given, `house_rules` the table's own list (Deck.house_rules). Signature spells
    (a Signature Spell section) are deck cards in every format, and in a format with
    signature spells also Deck.signature_spells; there the designation's signature_spells
    override the list's marks, and a command zone holding an oathbreaker and instants or
    sorceries, with no signature spell marked, has them as its signature spells.
    """
    suggestions = suggestions or {}
    commanders, companion = designation.commanders, designation.companion
    piles: dict[Section, _Pile] = defaultdict(_Pile)  # only the sections something is listed or put in
    unknown: _Unknown = {}
    main = piles[_MAIN].slots  # nearly every line: a main-deck card met first (inline)
    known = cards if isinstance(cards, dict) else dict(cards)  # a dict's get is a C call when compiled
    for entry in decklist.entries:
        card = known.get(entry.name)
        if card is None:  # outside the game sections it is only named (sideboard, not_in_deck)
            _add_unknown(unknown, entry.name, entry.section, entry.quantity, (entry.line,))
        elif entry.section is _MAIN and card.name not in main:
            main[card.name] = Entry(card, entry.quantity, (entry.line,))  # as _Pile.add_line does
        else:
            piles[entry.section].add_line(card, entry.quantity, entry.line)
    for pile in piles.values():
        if pile.repeats:
            pile.settle()
    if game_format.signature_spells:
        if designation.signature_spells:
            _override_zone(piles, unknown, cards, designation.signature_spells, Section.SIGNATURE, SIGNATURE_SOURCES)
        elif not piles[Section.SIGNATURE].slots and not any(u[1] == "signature" for u in unknown):
            _signature_from_command_zone(piles, game_format, format_data or NO_FORMAT_DATA)
    if commanders:
        _override_zone(piles, unknown, cards, commanders, Section.COMMANDER, COMMANDER_SOURCES)
    if companion:
        _override_companion(piles, unknown, cards, companion)
    elif not commanders:
        _companion_from_command_zone(piles)
    companion_entry, extra_companions = _single_companion(piles)
    signature = _listed(piles, Section.SIGNATURE)
    return Deck(
        commanders=_listed(piles, Section.COMMANDER),
        main=_listed(piles, Section.MAIN) + signature,
        companion=companion_entry,
        sideboard=_listed(piles, Section.SIDEBOARD) + _listed(piles, Section.MAYBEBOARD),
        planar=_listed(piles, Section.PLANAR),
        schemes=_listed(piles, Section.SCHEMES),
        unknown=tuple(
            UnknownName.of(name, quantity, lines, suggestions.get(name, ()), section)
            for (name, section), (quantity, lines) in unknown.items()
        ),
        color_choices=_canonical_choices(cards, designation.color_choices),
        outside=_listed(piles, Section.IGNORED),
        displayed=_listed(piles, Section.DISPLAY),
        extra_companions=extra_companions,
        signature_spells=signature if game_format.signature_spells else (),
        format=game_format,
        format_data=format_data,
        house_rules=house_rules,
    )


def _listed(piles: dict[Section, _Pile], section: Section) -> tuple[Entry, ...]:
    """The section's Entries (none when nothing was listed or put there)."""
    pile = piles.get(section)
    return () if pile is None else pile.entries()


def _add_unknown(unknown: _Unknown, name: str, section: str, quantity: int, lines: Iterable[int]) -> None:
    """Record an unresolved name, merging repeats of the same typed name in one section
    (its lines in a list: a tuple grown by each repeat was quadratic in the repeats)."""
    slot = unknown.setdefault((name, str(section)), [0, []])
    slot[0] += quantity
    slot[1].extend(lines)


def _override_zone(piles: dict[Section, _Pile], unknown: _Unknown, cards: Mapping[str, Card], names: Sequence[str],
                   section: Section, sources: Sequence[Section]) -> None:
    """Make exactly the named cards the section's (the commanders, or the signature spells):
    a named card already listed there stays as listed, one listed elsewhere is moved (one
    copy, from the first of `sources`), one not listed is added; cards listed there but not
    named join the main deck."""
    resolved = [cards.get(name) for name in names]
    wanted = {card.name for card in resolved if card is not None}
    zone = piles[section]
    for entry in zone.take_all():
        if entry.card.name in wanted:
            zone.add(entry.card, entry.quantity, entry.lines)  # already there: keep it as listed
        else:
            piles[Section.MAIN].add(entry.card, entry.quantity, entry.lines)
    for name, named in zip(names, resolved):
        if named is None:
            if (name, str(section)) not in unknown:
                _move_unknown(unknown, name, str(section))
        elif named.name not in zone.slots:
            moved = _take_from(piles, sources, named.name)
            zone.add(named, 1, moved[1] if moved else ())


def _signature_from_command_zone(piles: dict[Section, _Pile], game_format: Format, data: FormatData) -> None:
    """Oathbreaker lists often keep the signature spell beside its oathbreaker (a Commander
    section, the last block, the side zone): when the command zone holds a card that can
    command and instants or sorceries, and nothing marks a signature spell, those are it."""
    zone = piles[Section.COMMANDER]
    if len(zone.slots) < 2:
        return
    listed = [entry.card for entry in zone.slots.values()]
    spells = [card for card in listed if is_instant_or_sorcery(card)]
    if not spells or not any(game_format.commanders.reason(card, data) is None for card in listed):
        return
    for card in spells:
        entry = zone.slots.pop(card.name)
        piles[Section.SIGNATURE].add(entry.card, entry.quantity, entry.lines)


def _override_companion(piles: dict[Section, _Pile], unknown: _Unknown, cards: Mapping[str, Card],
                        name: str) -> None:
    """Make the named card the companion; a listed companion not named goes to the sideboard."""
    card = cards.get(name)
    zone = piles[Section.COMPANION]
    for entry in zone.take_all():
        if card is not None and entry.card.name == card.name:
            zone.add(entry.card, entry.quantity, entry.lines)
        else:
            piles[Section.SIDEBOARD].add(entry.card, entry.quantity, entry.lines)
    if card is None:
        _move_unknown(unknown, name, "companion")
    elif card.name not in zone.slots:
        moved = _take_from(piles, COMPANION_SOURCES, card.name)
        zone.add(card, 1, moved[1] if moved else ())


_OVERRIDE_SOURCES = ("main", "commander", "companion", "signature", "sideboard", "maybeboard")


def _move_unknown(unknown: _Unknown, name: str, section: str) -> None:
    """An unresolved override name: reuse its list lines if the list names it too, else add it."""
    for key in [k for k in unknown if k[0] == name and k[1] in _OVERRIDE_SOURCES]:
        quantity, lines = unknown.pop(key)
        if quantity > 1:
            unknown[key] = [quantity - 1, lines]
        _add_unknown(unknown, name, section, 1, lines)
        return
    _add_unknown(unknown, name, section, 1, ())


def _take_from(piles: dict[Section, _Pile], sections: Sequence[Section], name: str) -> tuple[Card, tuple[int, ...]] | None:
    """Take one copy of the named card from the first section that has it."""
    for section in sections:
        taken = piles[section].take_one(name)
        if taken:
            return taken
    return None


def _companion_from_command_zone(piles: dict[Section, _Pile]) -> None:
    """MTGO and XMage keep commander and companion together in the side zone (RULES.md 8):
    of two listed commanders that can't pair, the one with Companion is the companion."""
    zone = piles[Section.COMMANDER]
    if len(zone.slots) != 2 or piles[Section.COMPANION].slots:
        return
    first, second = (entry.card for entry in zone.slots.values())
    with_companion = [card for card in (first, second) if has_companion(card)]
    if len(with_companion) == 1 and not can_pair(first, second):
        entry = zone.slots.pop(with_companion[0].name)
        piles[Section.COMPANION].add(entry.card, entry.quantity, entry.lines)


def _single_companion(piles: dict[Section, _Pile]) -> tuple[Entry | None, tuple[Entry, ...]]:
    """The companion (the first card of the companion section) and any further companions
    declared, which the rules report: only one card can be revealed (702.139a)."""
    entries = piles[Section.COMPANION].take_all()
    return (entries[0] if entries else None), tuple(entries[1:])


def _canonical_choices(cards: Mapping[str, Card], choices: Mapping[str, str]) -> Mapping[str, str]:
    """color_choices keyed by canonical name (any name resolving to the commander may be used)."""
    canonical = {}
    for name, letter in choices.items():
        card = cards.get(name)
        canonical[card.name if card else name] = letter.strip().upper() if isinstance(letter, str) else letter
    return MappingProxyType(canonical)


# --- commander inference (DESIGN.md "Reading a list as its author meant") -------------


def infer_commanders(
    decklist: Decklist,
    cards: Mapping[str, Card],
    game_format: Format = COMMANDER,
    format_data: FormatData | None = None,
) -> Decklist:
    """A list that marks no commander: take the parser's one candidate whose cards can be
    commanders in the format (one card, or a pair that can pair) and that makes the deck
    the format's size, moved to the command zone with a commander_inferred warning saying
    from where.

    In a format with signature spells, a candidate of a card that can command and an
    instant or sorcery (nothing marking a signature spell) is an oathbreaker and its
    signature spell, both counted. Nothing is guessed when the list marks a commander,
    when no candidate fits, or when two different ones do; then commander_missing says
    how to mark one.
    """
    entries = decklist.entries
    if not decklist.candidates or any(e.section == Section.COMMANDER for e in entries):
        return decklist
    data = format_data or NO_FORMAT_DATA
    counted = sum(e.quantity for e in entries if e.section in COUNTED)
    fitting: dict[frozenset[int], tuple[Candidate, _Plan]] = {}
    for candidate in decklist.candidates:
        plan = _plan(candidate, entries, cards, counted, game_format, data)
        if plan is not None:
            fitting.setdefault(frozenset(candidate.entries), (candidate, plan))
    # a candidate inside a larger fitting one (the companion of a commander + companion
    # tail, alone) explains less of the list: the larger one is meant
    chosen = [plan for key, plan in fitting.items() if not any(key < other for other in fitting)]
    if len(chosen) != 1:
        return decklist
    ((candidate, (commanders, companion, spell)),) = chosen
    moved = list(entries)
    for i in commanders:
        moved[i] = moved[i].moved_to(Section.COMMANDER)
    if companion is not None:
        moved[companion] = moved[companion].moved_to(Section.COMPANION)
    if spell is not None:
        moved[spell] = moved[spell].moved_to(Section.SIGNATURE)
    names = [_shown(entries[i].name, cards) for i in commanders]
    unknown = [name for i, name in zip(commanders, names) if entries[i].name not in cards]
    spell_name = cards[entries[spell].name].name if spell is not None else None
    text = inferred(names, unknown, spell_name, game_format.role == "oathbreaker", candidate.source,
                    game_format.deck_size)
    warning = Violation(
        Code.COMMANDER_INFERRED,
        text,
        Severity.WARNING,
        cards=tuple(_shown(entries[i].name, cards) for i in candidate.entries),
        lines=tuple(sorted(entries[i].line for i in candidate.entries)),
    )
    return replace(decklist, entries=tuple(moved), problems=(*decklist.problems, warning))


# (commander indices, companion index or None, signature spell index or None)
_Plan = tuple[list[int], "int | None", "int | None"]


def _plan(candidate: Candidate, entries: tuple[ListEntry, ...], cards: Mapping[str, Card], counted: int,
          game_format: Format, data: FormatData) -> _Plan | None:
    """The plan when the candidate fits the format, else None."""
    indices = list(candidate.entries)
    listed = [entries[i] for i in indices]
    found = [cards.get(e.name) for e in listed]
    if any(e.quantity != 1 for e in listed):
        return None
    if None in found:
        return _plan_unknown(candidate, listed, found, counted, game_format, data)
    known = [card for card in found if card is not None]  # all of them
    if len({card.name for card in known}) != len(known):
        return None
    companion = spell = None
    if not _can_command(known, game_format, data):
        if len(known) != 2:
            return None
        spell = _signature_spell_of(indices, known, entries, game_format)
        if spell is None:
            companion = _companion_of(indices, known, entries)
            if companion is None:
                return None
            indices.remove(companion)
        else:
            indices.remove(spell)
        if not _can_command([cards[entries[indices[0]].name]], game_format, data):
            return None
    already = sum(1 for e in listed if e.section in COUNTED)
    total = counted - already + len(indices) + (spell is not None)
    return (indices, companion, spell) if total == game_format.deck_size else None


def _plan_unknown(candidate: Candidate, listed: list[ListEntry], found: list[Card | None], counted: int,
                  game_format: Format, data: FormatData) -> _Plan | None:
    """A block the layout sets apart (Candidate.layout) holding a card the card data lacks (a
    typo, a card newer than the store): its cards are the commanders when the count adds up
    with them counted, and the other card of a pair, if known, can command. Any other
    candidate with an unknown card proposes nothing."""
    if not candidate.layout or len({e.name for e in listed}) != len(listed):
        return None
    who = game_format.commanders
    if any(card is not None and who.reason(card, data) is not None and not who.half(card, data) for card in found):
        return None
    already = sum(1 for e in listed if e.section in COUNTED)
    total = counted - already + len(listed)
    return (list(candidate.entries), None, None) if total == game_format.deck_size else None


def _shown(name: str, cards: Mapping[str, Card]) -> str:
    """A typed name as a message shows it: the card's canonical name, or as typed when unknown."""
    card = cards.get(name)
    return card.name if card is not None else name


def named_designation(decklist: Decklist, cards: Mapping[str, Card], designation: Designation) -> Designation:
    """The designation a check judges with: the request's when it names commanders; else the
    commanders the list names in words (Decklist.named_commanders), when its lines mark
    none but those. Of the words' readings, the first whose names all resolve is meant
    (else the one resolving most names, the first of them on a tie: its unknown names are
    then reported as typed, as unknown_card, in the command zone)."""
    named = decklist.named_commanders
    if designation.commanders or named is None:
        return designation
    reading = next((names for names in named.readings if all(name in cards for name in names)), None)
    if reading is None:
        reading = max(named.readings, key=lambda names: sum(name in cards for name in names))
    chosen = {cards[name].name for name in reading if name in cards}
    for entry in decklist.entries:
        if entry.section is Section.COMMANDER and _shown(entry.name, cards) not in chosen:
            return designation  # the lines mark another commander: the marks win
    return replace(designation, commanders=reading)


def _companion_of(indices: list[int], found: list[Card], entries: tuple[ListEntry, ...]) -> int | None:
    """MTGO keeps commander and companion together in the side zone (RULES.md 8): of two
    cards, the one with Companion, when the list names no companion."""
    with_companion = [i for i, card in zip(indices, found) if has_companion(card)]
    if len(with_companion) != 1 or any(e.section == Section.COMPANION for e in entries):
        return None
    return with_companion[0]


def _signature_spell_of(indices: list[int], found: list[Card], entries: tuple[ListEntry, ...],
                        game_format: Format) -> int | None:
    """Of two cards, the one instant or sorcery beside a card that can command, in a format
    with signature spells when the list marks none."""
    if not game_format.signature_spells or any(e.section == Section.SIGNATURE for e in entries):
        return None
    spells = [i for i, card in zip(indices, found) if is_instant_or_sorcery(card)]
    return spells[0] if len(spells) == 1 else None


def _can_command(found: list[Card], game_format: Format, data: FormatData) -> bool:
    """One card that can be a commander in the format, or two that can be commanders together."""
    who = game_format.commanders
    if len(found) == 1:
        return who.reason(found[0], data) is None
    first, second = found
    return can_pair(first, second) and all(who.reason(card, data) is None or who.half(card, data) for card in found)
