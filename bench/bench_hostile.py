"""The worst inputs (issue 19): for each decklist reader, the slowest body of at most 1 MiB
we could construct, through service.validate_text on a warm store (parse, resolve, every
rule: what one request costs a worker, without HTTP), its time and its ratio to a normal
100-card list; then the review's reproductions as they cost now.

Every candidate stays inside what the service accepts: at most 1 MiB, 10,000 lines,
10,000 card entries, 40,000 XML tags, names of at most 200 characters (longer ones are
refused cheaply, so the slowest bodies sit just under the limits). Names that are no
card's are new on every run (a salt), so the per-store name memos never help; known
cards are the real store's (../shared), or the fixture cards without it.
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import time
from itertools import count
from typing import Callable

from bench.bench_http import REAL_CARDS, store_and_deck
from bench.common import Row, median_seconds, micros, millis
from card_data import open_repository
from card_data.settings import StoreSettings
from edh_service import pipeline as service
from validator.parse import parse

NAME = "hostile"
MIB = 1024 * 1024
LINES = 10_000  # the line and the entry limit
REPEAT = 3  # runs of each candidate (the median is reported); each run uses new names
_salts = count()

Make = Callable[[int], str]  # salt -> body


def unknown_names(salt: int, number: int = LINES, width: int = 90) -> list[str]:
    """`number` distinct names no card has, about `width` characters each."""
    return [(f"Qzv{salt}-{i} Nonexistent Card Called " + "Yonder " * 30)[:width].rstrip() for i in range(number)]


def real_names(number: int = LINES) -> list[str]:
    """Up to `number` distinct names of real cards (the fixture cards without ../shared)."""
    if REAL_CARDS.is_file():
        with gzip.open(REAL_CARDS, "rt", encoding="utf-8") as lines:
            names = [json.loads(line)["name"] for line, _ in zip(lines, range(number))]
    else:
        from bench.bench_http import FIXTURE_CARDS

        names = [json.loads(line)["name"] for line in FIXTURE_CARDS.read_text(encoding="utf-8").splitlines() if line]
    return names[:number]


def text_list(salt: int) -> str:
    return "\n".join(f"1 {name}" for name in unknown_names(salt))


def text_real(salt: int) -> str:
    return "\n".join(f"1 {name}" for name in real_names())


def text_accented(salt: int) -> str:
    """Unknown names in accented letters: every one decomposed and folded character by character."""
    return "\n".join(f"1 {name}" for name in unknown_names(salt, width=50)).replace("o", "ö").replace("e", "é")


def text_typos(salt: int) -> str:
    """Real names one letter off: each unknown, and close to cards (the fuzzy shortlist)."""
    return "\n".join(f"1 {name[:-1]}q{salt % 10}" for name in real_names())


def text_decorated(salt: int) -> str:
    """Archidekt categories and labels, Moxfield markers: every decoration peeled per line."""
    return "\n".join(f"1x {name} *F* [Ramp,Draw{{top}}] ^Have,#37d67a^"
                     for name in unknown_names(salt, width=50))


def text_same_card(salt: int) -> str:
    return "1 Sol Ring\n" * LINES


def text_forge_blanks(salt: int) -> str:
    return "\n".join(f"1 A{salt}|AB|" + " " * 990 + "Z" for _ in range(1_000))


def arena_list(salt: int) -> str:
    return "Commander\n1 Sol Ring (C21) 263\n\nDeck\n" + "\n".join(
        f"1 {name} (C21) {i}" for i, name in enumerate(unknown_names(salt, LINES - 10, width=85)))


def moxfield_json(salt: int) -> str:
    names = unknown_names(salt, LINES - 5, width=55)
    cards = ",\n".join(json.dumps(f"k{i}") + ': {"quantity": 1, "card": {"name": ' + json.dumps(name) + "}}"
                       for i, name in enumerate(names))
    return '{"name": "x", "boards": {"mainboard": {"cards": {\n' + cards + "\n}}}}"


def archidekt_json(salt: int) -> str:
    return json.dumps({"categories": [{"name": "Ramp", "includedInDeck": True}], "cards": [
        {"quantity": 1, "categories": ["Ramp"], "card": {"oracleCard": {"name": name}}}
        for name in unknown_names(salt, width=24)]})


def mtgjson_json(salt: int) -> str:
    return json.dumps({"data": {"mainBoard": [{"count": 1, "name": name} for name in unknown_names(salt, width=60)]}})


def tappedout_cards(salt: int) -> str:
    return json.dumps({"cards": "||".join(f"1 {name}" for name in unknown_names(salt))})


def tappedout_board(salt: int) -> str:
    board = "".join(f"<li class='tappedout-member'>1x <a class='card-link'>{name}</a></li>"
                    for name in unknown_names(salt, width=40))
    return json.dumps({"board": "<h3>Creature</h3><ul>" + board + "</ul>"})


def aetherhub_json(salt: int) -> str:
    return json.dumps({"convertedDeck": [{"quantity": 1, "name": name} for name in unknown_names(salt, width=70)]})


def tcgplayer_json(salt: int) -> str:
    names = unknown_names(salt, width=40)
    return json.dumps({"result": {"deck": {"subDecks": {"maindeck": [{"cardID": i, "quantity": 1}
                                                                      for i in range(len(names))]}},
                                  "cards": {str(i): {"name": name} for i, name in enumerate(names)}}})


def csv_list(salt: int) -> str:
    return "Count,Name,Section\n" + "\n".join(f'1,"{name}",nonlands' for name in unknown_names(salt, LINES - 1))


def csv_semicolons(salt: int) -> str:
    """Issue 22's header-driven CSV: `;`, a Commander column, no number in any quantity (each
    row one copy and a line of the quantity_assumed warning)."""
    return "Qty;Card Name;Board;Commander\n" + "\n".join(f"NULL;{name};main;False"
                                                          for name in unknown_names(salt, LINES - 1, width=85))


def json_name_arrays(salt: int) -> str:
    return json.dumps({"commanders": ["Sol Ring"], "mainboard": unknown_names(salt, LINES - 10, width=90)}, indent=0)


def json_cards_array(salt: int) -> str:
    return json.dumps({"commander": "Sol Ring", "cards": [{"name": name, "quantity": 1, "category": "Ramp"}
                                                          for name in unknown_names(salt, LINES - 1, width=50)]})


def json_commander_field(salt: int) -> str:
    """A cards array of 5,000 and a `commander` field of 4,999 other names beside it: each
    commander is looked for among the cards, and the ones not found added."""
    names = unknown_names(salt, LINES, width=40)
    return json.dumps({"cards": [{"name": name} for name in names[:5_000]], "commander": [0] + names[5_001:]},
                      separators=(",", ":"))


def json_cards_string(salt: int) -> str:
    return json.dumps({"commander": "Sol Ring", "partner": "", "cards": "\r\n".join(
        f"1 {name}" for name in unknown_names(salt, LINES - 1))})


def markdown_bullets(salt: int) -> str:
    """A Markdown document: a title, prose, then `## Decklist` with 9,990 bullets."""
    names = unknown_names(salt, LINES - 10, width=90)
    return "# Deck\n\n3 Game Changers: none.\n\n## Decklist\n\n" + "\n".join(f"- 1 {name}" for name in names)


def markdown_prose(salt: int) -> str:
    """A Markdown document of 10,000 lines of which one fenced block of 5,000 cards is the
    list: 4,995 prose lines named in one unread_lines warning."""
    names = unknown_names(salt, 5_000, width=80)
    prose = [f"{i} Game Changers: {name} and more prose." for i, name in enumerate(unknown_names(salt + 1, 4_995, 80))]
    return "\n".join([*prose[:2_000], "```", *(f"1 {name}" for name in names), "```", *prose[2_000:]])


def comment_commanders(salt: int) -> str:
    """A leading comment naming the commanders with every ambiguous separator, then 9,999 cards."""
    words = " and ".join(["Qzv Commander"] * 5)
    return f"# Commander: {words} & {words} / x (a remark)\n" + "\n".join(
        f"1 {name}" for name in unknown_names(salt, LINES - 1, width=85))


def dek_list(salt: int) -> str:
    return '<?xml version="1.0"?>\n<Deck>' + "".join(
        f'<Cards Quantity="1" Sideboard="false" Name="{name}"/>' for name in unknown_names(salt, width=55)) + "</Deck>"


def dek_broken(salt: int) -> str:
    """Not well-formed: read again line by line (salvage), each line a card element."""
    return '<?xml version="1.0"?>\n<Deck>\n<broken\n' + "\n".join(
        f'<Cards Quantity="1" Sideboard="false" Name="{name}"/>' for name in unknown_names(salt, LINES - 5, width=55)) \
        + "\n</Deck>"


def cod_list(salt: int) -> str:
    """Main-zone cards plus a comment naming a commander on every line, and a banner."""
    names = unknown_names(salt, 9_000, width=45)
    comment = "\n".join(f"CDR: {name}" for name in names[:1_000])
    return ('<?xml version="1.0"?>\n<cockatrice_deck version="1"><comments>' + comment + "</comments>"
            f"<bannerCard>{names[0]} + {names[1]}</bannerCard><zone name=\"main\">"
            + "".join(f'<card number="1" name="{name}"/>' for name in names) + "</zone></cockatrice_deck>")


def cod_comment_times_entries(salt: int) -> str:
    """4,990 main-zone cards of one name, and a comment naming it on 4,990 lines."""
    card = f"Qzv{salt} Commander"
    return ('<?xml version="1.0"?>\n<cockatrice_deck version="1"><comments>'
            + "\n".join(f"CDR: {card}" for _ in range(4_990)) + '</comments>\n<zone name="main">\n'
            + "\n".join(f'<card number="1" name="{card}"/>' for _ in range(4_990)) + "\n</zone></cockatrice_deck>")


def cod_zones(salt: int) -> str:
    """A zone for every card: each side zone judged beside the deck so far."""
    return '<?xml version="1.0"?>\n<cockatrice_deck version="1">' + "".join(
        f'<zone name="z{i}"><card number="1" name="{name}"/></zone>'
        for i, name in enumerate(unknown_names(salt, 9_000, width=55))) + "</cockatrice_deck>"


def dck_list(salt: int) -> str:
    return "[metadata]\nName=Bench\n[Main]\n" + "\n".join(
        f"1 {name}|C21|1" for name in unknown_names(salt, LINES - 5, width=90))


# reader -> candidates (label -> body maker); the slowest of each reader is its row
READERS: dict[str, dict[str, Make]] = {
    "text": {"10,000 distinct unknown names": text_list, "10,000 distinct real cards": text_real,
             "10,000 typos of real cards": text_typos, "10,000 accented unknown names": text_accented,
             "10,000 decorated lines": text_decorated, "10,000 lines of one card": text_same_card,
             "1,000 Forge-looking 1,000-character lines": text_forge_blanks},
    "arena": {"9,990 unknown printed names": arena_list},
    "moxfield json": {"9,995 unknown cards, one a line": moxfield_json},
    "archidekt json": {"10,000 unknown cards": archidekt_json},
    "mtgjson": {"10,000 unknown cards": mtgjson_json},
    "tappedout json": {"cards string of 10,000 unknown names": tappedout_cards,
                       "board HTML of 10,000 unknown names": tappedout_board},
    "aetherhub json": {"10,000 unknown cards": aetherhub_json},
    "tcgplayer json": {"10,000 unknown cards": tcgplayer_json},
    "csv": {"9,999 unknown rows": csv_list, "9,999 `;` rows, no quantity a number": csv_semicolons},
    "json shapes (issue 22)": {"name arrays of 9,999 unknown names": json_name_arrays,
                               "cards array of 10,000 unknown cards": json_cards_array,
                               "cards array of 5,000 beside a commander field of 4,999": json_commander_field,
                               "cards string of 9,999 unknown lines": json_cards_string},
    "markdown": {"9,990 bullets under ## Decklist": markdown_bullets,
                 "5,000-card fence in 4,995 prose lines": markdown_prose},
    "text, comment naming commanders": {"ambiguous names, then 9,999 unknown names": comment_commanders},
    ".dek": {"10,000 unknown elements": dek_list, "9,995 salvaged lines": dek_broken},
    ".cod": {"9,000 cards, 1,000 commander comment lines": cod_list, "9,000 zones of one card": cod_zones,
             "4,990 cards of one name, named on 4,990 comment lines": cod_comment_times_entries},
    ".dck": {"9,995 unknown printed names": dck_list},
}


def _reproductions() -> dict[str, str]:
    """The reviews' inputs, at their sizes (tests/hardening/test_bounded_readers.py's cases,
    and the JSON list's commander field of tests/hardening/test_work_bounds.py)."""
    from tests.hardening.test_bounded_readers import CASES
    from tests.hardening.test_work_bounds import QUADRATIC_JSON

    return {**{case.id: case.text for case in CASES},
            "a commander field of 20,000 names beside 20,000 cards (140 KB)": QUADRATIC_JSON,
            "a commander field of 4,999 names beside 5,000 cards (the most accepted)": json_commander_field(0),
            "a cockatrice comment naming the commander of 4,990 cards on 4,990 lines": cod_comment_times_entries(0)}


# Request bodies that are refused (422): what the refusal costs and weighs (the schema loads
# no item of a list over its bound, and lists a few problems).
REFUSED_BODIES: dict[str, tuple[str, Callable[[], dict]]] = {
    "batch of 256,000 zeros (500 KB)": ("/api/v1/validate/batch", lambda: {"decks": [0] * 256_000}),
    "300,000 empty commanders": ("/api/v1/validate", lambda: {"decklist": "1 Sol Ring", "commanders": [""] * 300_000}),
    "80,000 unknown fields": ("/api/v1/validate", lambda: {"decklist": "1 Sol Ring", **{f"x{n}": 0 for n in range(80_000)}}),
    "a 1 MiB color_choices key": ("/api/v1/validate",
                                  lambda: {"decklist": "1 Sol Ring", "color_choices": {"\u4e01" + "\ufdfa" * 349_000: "R"}}),
}


def refusal_rows(db) -> list[Row]:
    """Each refused body through the app (Flask's test client): median time and the 422's size."""
    from edh_service.factory import create_app

    client = create_app({"CARD_DB": str(db), "CARD_DATA_OFFLINE": True, "CARD_DATA_SYNC": False,
                         "RATELIMIT_ENABLED": False}).test_client()
    rows = []
    for label, (path, make) in REFUSED_BODIES.items():
        body = json.dumps(make(), ensure_ascii=False, separators=(",", ":")).encode()
        answers = []
        seconds = median_seconds(lambda: answers.append(client.post(path, data=body, content_type="application/json")),
                                 repeat=REPEAT, warmup=1)
        answer = answers[-1]
        rows.append(Row(NAME, f"422: {label} ({len(body) / 1024:,.0f} KiB)",
                        f"{answer.status_code}, {millis(seconds)}, {len(answer.data):,} bytes", "< 1 s, < 64 KB"))
    return rows


def timed(repository, make: Make, repeat: int = REPEAT, **options) -> tuple[float, int]:
    """Median seconds of validate_text (with `options`) over `repeat` bodies (a new salt
    each), and the size."""
    samples, size = [], 0
    for _ in range(repeat):
        text = make(next(_salts))
        size = len(text.encode("utf-8"))
        assert size <= MIB, f"{make.__name__}: {size} bytes is over 1 MiB"
        start = time.perf_counter()
        try:
            service.validate_text(text, repository, **options)
        except ValueError:  # DecklistError: a refusal (422) costs what it cost to reach it
            pass
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), size


def run() -> list[Row]:
    """The slowest body per reader, and the reproductions."""
    db, deck, data = store_and_deck()
    repository = open_repository(StoreSettings(db, offline=True))
    service.validate_text(deck + "\n1 Warm The Fuzzy Index Up", repository)  # build the suggestion index
    normal = median_seconds(lambda: service.validate_text(deck, repository), repeat=300, warmup=30)
    rows = [Row(NAME, "normal 100-card list (validate_text, warm store), median", micros(normal))]
    worst: tuple[float, str, Make | None] = (0.0, "", None)
    for reader, candidates in READERS.items():
        results = []
        for label, make in candidates.items():
            parse(make(0))  # a candidate the parser refuses (DecklistError) is no legal-size body
            seconds, size = timed(repository, make)
            results.append((seconds, label, size, make))
        seconds, label, size, make = max(results, key=lambda result: result[0])
        worst = max(worst, (seconds, f"{reader}: {label}", make), key=lambda result: result[0])
        rows.append(Row(NAME, f"{reader}: slowest ≤ 1 MiB body ({label}, {size / 1024:,.0f} KiB)",
                        f"{millis(seconds)} ({seconds / normal:,.0f}x)", "< 1 s"))
    for label, text in _reproductions().items():
        seconds, _ = timed(repository, lambda salt, text=text: text)
        rows.append(Row(NAME, f"reproduction: {label}", f"{millis(seconds)} ({seconds / normal:,.0f}x)", "< 1 s"))
    rows.append(Row(NAME, "slowest of all", f"{millis(worst[0])} ({worst[0] / normal:,.0f}x): {worst[1]}"))
    # what the fuzzy "did you mean" of its first MAX_SUGGESTED_NAMES unknown names costs of it
    unsuggested, _ = timed(repository, worst[2], suggest_limit=0)
    rows.append(Row(NAME, "slowest of all, without fuzzy suggestions (suggest_limit=0)",
                    f"{millis(unsuggested)} ({unsuggested / normal:,.0f}x)"))
    rows += refusal_rows(db)
    rows.append(Row(NAME, "setup", f"{data}; median of {REPEAT}; load {os.getloadavg()[0]:.1f}"))
    return rows
