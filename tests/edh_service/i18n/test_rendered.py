"""Every violation code and bracket reason, rendered in every language from real decks (and,
for the codes no real deck reaches, from real cards in hand-written lists): non-empty,
different from its English, no placeholder left, and none of the English words a message is
made of (card names aside). And every message id of the catalog rendered in every language
with made-up parameters: no id left untranslated, no placeholder lost."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from card_data import StoreSettings, open_repository
from edh_service.i18n import LANGUAGES
from edh_service.i18n.catalogs import DIRECTORY, language
from edh_service.pipeline import validate_text
from tests.support.golden_reports import build_store, deck_paths
from validator.formats import FORMATS, HouseRules
from validator.messages import Name, Names, Pairs, Term, Text
from validator.violations import Code

TRANSLATED = [code for code in LANGUAGES if code != "en"]
# English words of the messages' own vocabulary: none may be left in another language's
# message once card names (and the decklist's own text) are taken out.
ENGLISH_WORDS = re.compile(r"\b(the deck|is banned|card data|color identity|companion condition|is not|"
                           r"allows|was marked|taken as|can't be|at most|at least|appears|listed|"
                           r"outside|legal in|commanders?'s?)\b", re.IGNORECASE)
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")

# Hand-written lists of real cards for the codes no real deck reaches (the deck is only the
# carrier: its message is what is checked).
FORFEITS = "\n".join(f"1 {name}" for name in [
    "Sol Ring", "Arcane Signet", "Command Tower", "Lightning Bolt", "Counterspell", "Swords to Plowshares",
])
LISTS = {
    "planar and scheme decks, a token": "Commander\n1 Atraxa, Praetors' Voice\nDeck\n" + FORFEITS
    + "\n2 Forest\n0 Island\nPlanar deck\n2 Akoum\nSchemes\n1 Sol Ring\nTokens\n1 Treasure\nSideboard\n1 Opt",
    "a Background alone, a companion": "Commander\n1 Raised by Giants\n1 Lurrus of the Dream-Den\n1 Atraxa, Praetors' Voice"
    "\nCompanion\n1 Sol Ring\n1 Lutri, the Spellchaser\nDeck\n" + FORFEITS + "\n1 Slyvian Tpyo",
    "markdown and a format": "# My deck\n\nSome prose.\n\nFormat: Brawl\n\n## Commander\n- 1 Atraxa, Praetors' Voice\n"
    "## Deck\n- 1 Sol Ring\n",
    "a CSV with no quantities": "Count,Name\nNULL,Sol Ring\n,Arcane Signet\n1,Atraxa, Praetors' Voice\n",
    "two commanders that do not pair, a plane and an un-card in the deck": "Commander\n1 Krenko, Mob Boss\n"
    "1 Tymna the Weaver\nDeck\n1 Akoum\n1 Mox Lotus\n1 Chaos Orb\n1 Treasure\n" + FORFEITS,
    "a commander by the MTGO layout": FORFEITS + "\n1 Grizzly Bears\n\n1 Krenko, Mob Boss\n",
    "a format named, a line that is no card, a companion whose condition fails": "Format: Brawl\nCommander\n"
    "1 Krenko, Mob Boss\nCompanion\n1 Gyruda, Doom of Depths\nDeck\n!!!\n" + FORFEITS,
    "a Prismatic Piper with no color": "Commander\n1 The Prismatic Piper\n1 Tymna the Weaver\nDeck\n" + FORFEITS,
}


@pytest.fixture(scope="module")
def repository(shared_dir, tmp_path_factory):
    db = build_store(shared_dir, tmp_path_factory.mktemp("rendered") / "cards.sqlite3")
    return open_repository(StoreSettings(db, offline=True))


@pytest.fixture(scope="module")
def texts(shared_dir, repository) -> dict[str, list[tuple[Text, tuple[str, ...]]]]:
    """Code (or "bracket reason") -> (text, the cards it names) of every violation and
    reason the real decks (in every format, bracket 1 declared in Commander) and the
    hand-written lists give."""
    lists = [(shared_dir / "decks" / path).read_bytes().decode("utf-8-sig") for path in deck_paths(shared_dir)]
    lists += LISTS.values()
    house = HouseRules(banned=frozenset({"Sol Ring"}), banned_as_commander=frozenset({"Atraxa, Praetors' Voice"}),
                       unbanned=frozenset({"Mana Crypt", "Dockside Extortionist"}), max_bracket=2, name="Thursday")
    found: dict[str, list] = {}
    for text in lists:
        for fmt in (*FORMATS, None):
            for rules in (None, house):
                try:
                    report = validate_text(text, repository, game_format=fmt, house_rules=rules,
                                           bracket=1 if fmt and fmt.brackets and rules is None else None).report
                except ValueError:
                    continue  # a list the parser refuses: no report
                for violation in report.violations:
                    found.setdefault(violation.code, []).append((violation.text, violation.cards))
                for reason in report.bracket.reasons if report.bracket else ():
                    found.setdefault("bracket reason", []).append((reason.text, reason.cards))
    return found


UNREACHED = {Code.CARD_LOOKUP_UNAVAILABLE, Code.AMBIGUOUS_CARD, Code.BANNED_AS_COMMANDER}


def test_the_lists_reach_every_code_but_those_of_other_tests(texts):
    """card_lookup_unavailable needs a Scryfall that does not answer and ambiguous_card a names
    table, and banned_as_commander a legendary creature Duel Commander restricts, which the
    real card data has none of (all three rendered below from the catalog)."""
    assert sorted(set(Code) - set(texts) - UNREACHED) == []
    assert "bracket reason" in texts


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_code_and_reason_reads_in_the_language(texts, lang):
    renderer = language(lang)
    for code, said in texts.items():
        for text, cards in said[:40]:
            english, shown = text.english(), text.render(renderer)
            assert shown and shown != english, (lang, code, english)
            assert not PLACEHOLDER.search(shown), (lang, code, shown)
            rest = shown
            for name in sorted(cards, key=len, reverse=True):
                rest = rest.replace(name, "")
            rest = re.sub(r'"[^"]*"', "", rest)  # the list's own text, quoted
            assert not ENGLISH_WORDS.search(rest), (lang, code, shown)


def _dummy(name: str):
    """A made-up value of the kind a placeholder takes."""
    if name in {"n", "count", "size", "most", "least", "limit", "more", "total", "have", "bracket", "oathbreakers",
                "length"}:
        return 3
    if name in {"cards", "spells"}:
        return Names(["Sol Ring", "Island"])
    if name == "combos":
        return Pairs([("Sol Ring", "Island")])
    if name in {"card", "first", "second", "partner", "spell"}:
        return Name("Sol Ring")
    if name in {"format", "name", "role", "kind", "label", "type", "colors", "identity"}:
        return Term("Commander")
    return "x"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_of_the_catalog_renders_with_its_placeholders_filled(lang):
    with (DIRECTORY / "messages.pot").open("rb") as file:
        template = read_po(file)
    renderer = language(lang)
    for message in template:
        if not message.id:
            continue
        singular, plural = (message.id if isinstance(message.id, tuple) else (message.id, None))
        if "%(" in singular:  # the page's texts (Flask-Babel's %(name)s): tests/edh_service/web/test_page_languages.py
            continue
        names = set(PLACEHOLDER.findall(singular + (plural or "")))
        params = tuple((name[1:-1], _dummy(name[1:-1])) for name in names)
        text = Text(singular, params, plural, 3 if plural else 0)
        shown = text.render(renderer)
        assert shown and not PLACEHOLDER.search(shown), (lang, singular, shown)
        if names or singular.endswith((".", "?")):  # a term may be spelled alike (cEDH, Duel Commander)
            assert shown != text.english(), (lang, singular)
