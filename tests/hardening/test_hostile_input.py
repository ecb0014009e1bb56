"""Hostile input against the API, through create_app's test client and once against a real
gunicorn: every case gets a 4xx JSON envelope or a 200 with clean violations, never a 5xx,
never a hang (pytest-timeout), and the server answers a normal request correctly afterwards."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.live_http import (
    BATCH, NORMAL_DECK, VALIDATE, Answer, assert_envelope, assert_normal_answer, http_json, raw_request,
)
from validator.parse import DecklistError, parse
from validator.violations import Code

CODES = {code.value for code in Code}
ATRAXA = "Commander\n1 Atraxa, Praetors' Voice\n"
GARBAGE = random.Random(7).randbytes(64 * 1024)  # seeded: the same bytes every run
TEN_MB_OF_LINES = "1 Forest\n" * 1_200_000  # 10.8 MB

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<Deck>
<Cards CatID="1" Quantity="1" Sideboard="false" Name="&lol4;" />
</Deck>"""
EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<cockatrice_deck version="1"><zone name="main">
<card number="1" name="&xxe;"/>
</zone></cockatrice_deck>"""
EXTERNAL_DTD = """<?xml version="1.0"?>
<!DOCTYPE Deck SYSTEM "http://127.0.0.1:9/deck.dtd">
<Deck>
<Cards CatID="1" Quantity="1" Sideboard="false" Name="Sol Ring" />
</Deck>"""
DEEP_XML = "<Deck>" + "<a>" * 50_000 + "</a>" * 50_000 + "</Deck>"


def deck(text: str, **fields) -> bytes:
    """A JSON validate body."""
    return json.dumps({"decklist": text, **fields}).encode()


def batch(*texts: str) -> bytes:
    """A JSON batch body."""
    return json.dumps({"decks": [{"decklist": text} for text in texts]}).encode()


@dataclass(frozen=True)
class Case:
    """One hostile request and what a correct answer is."""

    id: str
    body: bytes
    content_type: str | None = "application/json"
    path: str = VALIDATE
    status: int = 200
    codes: frozenset[str] = field(default_factory=frozenset)  # must be among a 200's violation codes
    absent: tuple[bytes, ...] = ()  # must not appear anywhere in the answer
    method: str = "POST"


CASES = (
    Case("empty json body", b"", status=400),
    Case("empty text body", b"", "text/plain", codes=frozenset({"commander_missing", "deck_size"})),
    Case("10 MB json", deck(TEN_MB_OF_LINES), status=413),
    Case("10 MB text", TEN_MB_OF_LINES.encode(), "text/plain", status=413),
    Case("10 MB batch", batch(TEN_MB_OF_LINES), path=BATCH, status=413),
    Case("binary garbage as json", GARBAGE, status=400),
    Case("binary garbage as text", GARBAGE, "text/plain", status=400),
    Case("binary garbage without a type", GARBAGE, None, status=415),
    Case("invalid UTF-8 inside JSON", b'{"decklist": "1 Sol Ring\xc3\x28"}', status=400),
    Case("invalid UTF-8 text", b"1 Sol Ring\n1 \xff\xfe Forest\n", "text/plain", status=400),
    Case("lone surrogate escape", b'{"decklist": "1 Sol Ring \\ud800"}', status=400),
    Case("lone low surrogate escape, upper case", b'{"decklist": "1 Sol Ring \\uDC00"}', status=400),
    Case("lone surrogate escape in a key", b'{"decklist": "1 Sol Ring", "\\uD83D": 1}', status=400),
    # a pair of escapes is one character (not refused); an escaped backslash before "ud800" is text
    Case("surrogate pair escape (an emoji)", b'{"decklist": "1 Sol Ring \\ud83d\\ude00"}',
         codes=frozenset({"commander_missing"})),
    Case("escaped backslash, then ud800", b'{"decklist": "1 Sol Ring \\\\ud800"}', codes=frozenset({"unknown_card"})),
    Case("100k nested arrays", b"[" * 100_000, status=400),
    Case("100k nested objects", b'{"decklist": ' + b'{"a": ' * 100_000, status=400),
    Case("100k nested arrays in a batch", b'{"decks": ' + b"[" * 100_000, path=BATCH, status=400),
    Case("100k nested brackets as decklist text", deck("[" * 100_000), codes=frozenset({"unparsed_line"})),
    Case("100,000-line text", b"1 Forest\n" * 100_000, "text/plain", status=422),
    Case("100,000-line json", deck("1 Forest\n" * 100_000), status=422),
    Case("100,000 blank lines", deck("\n" * 100_000), status=422),
    Case("quantity 10^30", deck(ATRAXA + "1" + "0" * 30 + " Forest\n"), codes=frozenset({"invalid_quantity"})),
    Case("quantity 10^30 in csv", deck("Count,Name\n1" + "0" * 30 + ",Sol Ring\n"),
         codes=frozenset({"invalid_quantity"})),
    Case("quantity 10^30 in .dek", deck('<?xml version="1.0"?>\n<Deck>\n<Cards CatID="1" Quantity="1'
                                        + "0" * 30 + '" Sideboard="false" Name="Sol Ring" />\n</Deck>'),
         codes=frozenset({"invalid_quantity"})),
    Case("negative quantity", deck(ATRAXA + "-5 Sol Ring\n"), codes=frozenset({"invalid_quantity"})),
    # over Python's 4,300-digit int() limit: json.loads raised ValueError, answered as broken JSON (400)
    Case("bracket of 5,000 digits", b'{"decklist": "1 Sol Ring", "bracket": ' + b"9" * 5_000 + b"}", status=422),
    Case("bracket of 5,000 digits in a batch",
         b'{"decks": [{"decklist": "1 Sol Ring", "bracket": -' + b"9" * 5_000 + b"}]}", path=BATCH, status=422),
    Case("commander of 5,000 digits", b'{"decklist": "1 Sol Ring", "commanders": [' + b"9" * 5_000 + b"]}",
         status=422),
    Case("quantity of 5,000 digits in a pasted Moxfield export",
         deck('{"name": "x", "boards": {"mainboard": {"count": 1, "cards": {"a": {"quantity": ' + "9" * 5_000
              + ', "card": {"name": "Sol Ring"}}}}}}'), codes=frozenset({"invalid_quantity"})),
    Case("name of 10,000 characters", deck("1 " + "A" * 10_000), codes=frozenset({"unparsed_line"})),
    Case("name of 200 characters", deck("1 " + "B" * 200), codes=frozenset({"unknown_card"})),
    Case("commander override of 10,000 characters", deck("1 Sol Ring", commanders=["A" * 10_000]), status=422),
    Case("NUL bytes", deck("1 Sol\x00Ring\n\x00\x00\n"), codes=frozenset({"unparsed_line"})),
    Case("billion laughs in .dek", deck(BILLION_LAUGHS), codes=frozenset({"unparsed_line"}),
         absent=(b"lollol",)),
    Case("external entity in .cod", deck(EXTERNAL_ENTITY), codes=frozenset({"unparsed_line"}),
         absent=(b"root:",)),
    Case("external DTD in .dek", deck(EXTERNAL_DTD), codes=frozenset({"deck_size"})),
    # 100,002 tags: over the XML reader's 40,000 (issue 19: each element costs Python calls)
    Case("50,000 nested XML elements", deck(DEEP_XML), status=422),
    Case("XML bomb as application/xml", BILLION_LAUGHS.encode(), "application/xml", status=415),
    Case("form post", b"decklist=1+Sol+Ring", "application/x-www-form-urlencoded", status=415),
    Case("multipart", b"--x\r\nContent-Disposition: form-data; name=decklist\r\n\r\n1 Sol Ring\r\n--x--\r\n",
         "multipart/form-data; boundary=x", status=415),
    Case("text with an unknown charset", b"1 Sol Ring", "text/plain; charset=klingon", status=415),
    Case("JSON scalar", b'"1 Sol Ring"', status=422),
    Case("batch of 51 decks", batch(*["1 Sol Ring"] * 51), path=BATCH, status=422),
    Case("batch over the line budget", batch(*["1 Forest\n" * 9_000] * 3), path=BATCH, status=422),
    Case("batch of one 100,000-line deck", batch("1 Forest\n" * 100_000), path=BATCH, status=422),
    Case("card name of 3,000 characters", b"", None, path="/api/v1/cards/" + "A" * 3_000, status=422,
         method="GET"),
)


def via_client(client, case: Case) -> Answer:
    """Send a case through Flask's test client."""
    headers = {"Content-Type": case.content_type} if case.content_type else {}
    response = client.open(case.path, method=case.method, data=case.body, headers=headers)
    return Answer(response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.get_data())


def via_socket(base: str, case: Case) -> Answer:
    """Send a case to a live server over a raw socket."""
    headers = {"Content-Type": case.content_type} if case.content_type else {}
    return raw_request(base, case.method, case.path, case.body, headers)


def check(case: Case, answer: Answer) -> None:
    """The answer is what the case expects: an envelope, or clean violations."""
    assert answer.status < 500, answer.body[:300]
    for text in case.absent:
        assert text not in answer.body
    if case.status != 200:
        assert_envelope(answer, case.status)
        return
    assert answer.status == 200, answer.body[:300]
    report = answer.json()
    codes = {violation["code"] for violation in report["violations"]}
    assert case.codes <= codes
    assert codes <= CODES  # only documented codes, each violation well-formed
    for violation in report["violations"]:
        assert isinstance(violation["message"], str) and violation["message"]
        assert all(isinstance(line, int) and line >= 1 for line in violation["lines"])


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_hostile_request_through_the_test_client(client, case):
    check(case, via_client(client, case))
    assert_normal_answer(via_client(client, Case("normal", deck(NORMAL_DECK))))


@pytest.mark.timeout(240)
def test_hostile_requests_against_gunicorn(live_server):
    """Every case against a real gunicorn (2 workers), each followed by a normal request."""
    for case in CASES:
        answer = via_socket(live_server, case)
        check(case, answer)
        assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))


def test_a_card_path_of_10000_characters_is_an_envelope(client):
    body = assert_envelope(via_client(client, Case("", b"", None, path="/api/v1/cards/" + "A" * 10_000,
                                                   method="GET")), 422)
    assert "name" in body["errors"]


def test_a_huge_request_line_is_refused_by_gunicorn_not_a_worker_crash(live_server):
    """gunicorn refuses request lines over 4094 bytes itself (a plain HTML 414, before the app:
    no JSON envelope is possible there), and the workers keep serving."""
    answer = raw_request(live_server, "GET", "/api/v1/cards/" + "A" * 10_000)
    assert answer.status == 414
    assert_normal_answer(http_json(live_server, "POST", VALIDATE, {"decklist": NORMAL_DECK}))


def test_a_batch_of_50_real_sized_decks_is_answered_in_order(client):
    answer = via_client(client, Case("", batch(*[NORMAL_DECK] * 50), path=BATCH))
    assert answer.status == 200
    results = answer.json()["results"]
    assert len(results) == 50
    assert all({v["code"] for v in result["violations"]} == {"banned", "color_identity", "deck_size"}
               for result in results)


# --- fuzzing -----------------------------------------------------------------------------
# tests/validator/test_parse_property.py fuzzes parse() with deck-like and random text; these
# add the API boundary (any bytes, any content type) and hostile XML structure.

CONTENT_TYPES = st.sampled_from([
    "application/json", "text/plain", "text/plain; charset=latin-1", "application/xml", None,
    "application/json; charset=utf-16",
])
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["decklist", "decks", "commanders", "companion", "color_choices", "format",
                         "decklist_format", "x"]), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=600), JSONISH.map(lambda v: json.dumps(v).encode())),
       content_type=CONTENT_TYPES, path=st.sampled_from([VALIDATE, BATCH]))
def test_any_body_with_any_type_is_never_a_5xx(client, body, content_type, path):
    answer = via_client(client, Case("fuzz", body, content_type, path=path))
    assert answer.status < 500, answer.body[:300]
    if answer.status >= 400:
        assert_envelope(answer, answer.status)


ENTITY_NAME = st.sampled_from(["a", "lol", "xxe", "b"])
XML_PIECES = st.one_of(
    st.sampled_from(['<!ENTITY a "aaaaaaaaaa">', '<!ENTITY lol "&a;&a;&a;&a;">', '<!ENTITY xxe SYSTEM "file:///etc/passwd">',
                     '<!ENTITY % p SYSTEM "http://127.0.0.1:9/p">', "%p;", '<!ELEMENT Deck ANY>']),
    ENTITY_NAME.map(lambda name: f"&{name};"),
)
CARD_ELEMENT = st.tuples(st.sampled_from(["Cards", "card"]), st.text(max_size=8), ENTITY_NAME).map(
    lambda t: f'<{t[0]} Quantity="1" number="1" Sideboard="false" name="{t[1]}&{t[2]};" Name="&{t[2]};"/>')


@settings(max_examples=150, deadline=None)
@given(doctype=st.lists(XML_PIECES, max_size=6), root=st.sampled_from(["Deck", "cockatrice_deck"]),
       depth=st.integers(0, 3000), cards=st.lists(CARD_ELEMENT, max_size=5))
def test_hostile_xml_never_expands_entities_and_never_raises(doctype, root, depth, cards):
    text = (f'<?xml version="1.0"?>\n<!DOCTYPE {root} [{"".join(doctype)}]>\n<{root}>\n'
            + "<z>" * depth + "\n".join(cards) + "</z>" * depth + f"\n</{root}>")
    try:
        decklist = parse(text)
    except DecklistError:
        return
    for entry in decklist.entries:
        assert "aaaaaaaaaa" not in entry.name and "root:" not in entry.name
