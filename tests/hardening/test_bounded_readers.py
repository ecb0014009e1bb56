"""The hostile decklists of issue 19 over HTTP: each answers 200 (or a clear 422) with the
violations it must have, costs the request no more than a bound set by a normal list's
cost in the same run, and against a real gunicorn no worker is killed; lone surrogates
give no 500 on any path text takes into the parser (API text/plain, API JSON, a batch
item, the page's form field and its upload).

The parser's side of the same inputs (what each is read as, and that each one's cost grows
linearly) is tests/validator/parse/test_limits.py.
"""

from __future__ import annotations

import io
import json
import time
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.growth import best_of
from tests.support.live_http import (
    BATCH, NORMAL_DECK, VALIDATE, Answer, assert_envelope, assert_normal_answer, gunicorn, http_json, raw_request,
)
from tests.validator.parse.test_property_limits import RUN_UNITS, padded, run
from validator.parse import MAX_LINE_LENGTH, MAX_NAME_LENGTH

# A request is bounded when it costs at most this many normal requests' CPU time (a 100-card
# list through the same client, measured in the same run), or this many seconds, whichever
# is more. Before the fixes the cheapest of these took 5 s of a worker, the worst hours.
NORMAL_REQUESTS = 1_000
FLOOR_SECONDS = 1.0


def dek(inner: str) -> str:
    """An MTGO .dek around the given elements."""
    return '<?xml version="1.0"?>\n<Deck>\n' + inner + "\n</Deck>\n"


def cod(inner: str) -> str:
    """A Cockatrice .cod: `inner` before a main zone holding Sol Ring."""
    return ('<?xml version="1.0"?>\n<cockatrice_deck version="1">' + inner
            + '<zone name="main"><card number="1" name="Sol Ring"/></zone></cockatrice_deck>\n')


def moxfield(names: list[str], separator: str = "\n") -> str:
    """A Moxfield API export of one copy of each name."""
    items = (json.dumps(f"k{i}") + ': {"quantity": 1, "card": {"name": ' + json.dumps(name) + "}}"
             for i, name in enumerate(names))
    return '{"boards": {"mainboard": {"cards": {' + ("," + separator).join(items) + "}}}}"


@dataclass(frozen=True)
class Case:
    """One hostile decklist, sent as text/plain, and what the answer must be."""

    id: str
    text: str
    status: int = 200
    codes: frozenset[str] = field(default_factory=frozenset)  # among a 200's violation codes
    message: str = ""  # in a 422's message


def codes(*names: str) -> frozenset[str]:
    """A set of violation codes."""
    return frozenset(names)


CASES = (
    Case("dek element with a 50,000-character attribute run",
         dek('<Cards CatID="1" Quantity="1" ' + "a" * 50_000 + ' Name="Sol Ring" />'), codes=codes("unparsed_line")),
    Case("cod element with a 50,000-character attribute run",
         cod('<zone name="side"><card number="1" ' + "a" * 50_000 + ' name="Sol Ring"/></zone>'),
         codes=codes("unparsed_line")),
    Case("cockatrice comment cdr: x, 50,000 spaces, y", cod("<comments>cdr: x" + " " * 50_000 + "y</comments>"),
         codes=codes("deck_size")),
    Case("xml declaration with 50,000 spaces before ?>",
         '<?xml version="1.0"' + " " * 50_000 + '?>\n<Deck>\n<Cards Quantity="1" Name="Sol Ring" />\n</Deck>\n',
         codes=codes("deck_size")),
    Case("banner card name with 20,000 spaces", cod("<bannerCard>a" + " " * 20_000 + "b</bannerCard>"),
         codes=codes("deck_size")),
    Case("json card name a, 30,000 spaces, b", moxfield(["a" + " " * 30_000 + "b", "Sol Ring"]),
         codes=codes("unparsed_line")),
    Case("1,000 forge lines 1 A|AB|, 990 spaces, Z", "\n".join("1 A|AB|" + " " * 990 + "Z" for _ in range(1_000)),
         codes=codes("unparsed_line")),
    Case("1,000 distinct names holding 990 spaces", "\n".join(f"1 {i} a" + " " * 990 + "b" for i in range(1_000)),
         codes=codes("unparsed_line")),
    Case("tappedout cards: 1 Opt|| 140,000 times", json.dumps({"cards": "1 Opt||" * 140_000}), status=422,
         message="140,001 card entries"),
    Case("dek of 55,000 repeats", dek('<Cards Name="Opt"/>' * 55_000), status=422, message="55,003 tags"),
    Case("moxfield export of 15,000 distinct cards", moxfield([f"Card {i}" for i in range(15_000)], " "),
         status=422, message="15,000 card entries"),
    Case("moxfield export of 16,000 distinct cards on 8,000 lines",
         moxfield([f"Card {i}" for i in range(16_000)], " ").replace('}}, "k', '}},\n"k', 8_000),
         status=422, message="16,000 card entries"),
    Case("moxfield export of 9,000 distinct cards on 9,000 lines", moxfield([f"Card {i}" for i in range(9_000)]),
         codes=codes("unknown_card")),
    Case("tappedout board of 100,000 unclosed tags", json.dumps({"board": "<a " * 100_000}),
         codes=codes("deck_size")),
    Case("tappedout board with <![", json.dumps({"board": "<![" * 10}), codes=codes("deck_size")),
    Case("lone surrogate escape in a pasted json export", moxfield(["No Such \ud800 Card"]),
         codes=codes("unknown_card")),
    Case("xml &#xD800; reference", dek('<Cards CatID="1" Quantity="1" Name="Sol Ring &#xD800;" />'),
         codes=codes("unparsed_line")),
)


def answer_of(response) -> Answer:
    """A test client's response as an Answer."""
    return Answer(response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.get_data())


def post_text(client, text: str) -> Answer:
    """POST the text as text/plain through the test client."""
    return answer_of(client.post(VALIDATE, data=text.encode("utf-8"), content_type="text/plain"))


def check(case: Case, answer: Answer) -> None:
    """The answer is what the case expects."""
    if case.status != 200:
        body = assert_envelope(answer, case.status)
        assert case.message in body["message"]
        return
    assert answer.status == 200, answer.body[:300]
    found = {violation["code"] for violation in answer.json()["violations"]}
    assert case.codes <= found, found


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_each_hostile_list_is_answered_at_a_bounded_cost(client, case):
    check(case, post_text(client, case.text))
    normal, hostile = best_of([lambda: post_text(client, NORMAL_DECK), lambda: post_text(client, case.text)])
    bound = max(FLOOR_SECONDS, NORMAL_REQUESTS * normal)
    assert hostile <= bound, f"{hostile:.3f} s of CPU, over {bound:.3f} s ({NORMAL_REQUESTS} normal requests: {normal:.5f} s each)"


@pytest.mark.timeout(300)
def test_no_hostile_list_kills_or_stalls_a_gunicorn_worker(_fixture_db_template, tmp_path):
    """Every case against a real gunicorn (2 workers, the arbiter's timeout cut to 10 s):
    answered in time, and afterwards the same two workers serve a normal request, with no
    worker timed out or booted again in the log."""
    log = tmp_path / "gunicorn.log"
    db = tmp_path / "cards.sqlite3"
    db.write_bytes(_fixture_db_template.read_bytes())
    # GUNICORN_CMD_ARGS overrides the config file's 30 s worker timeout
    with gunicorn(log, CARD_DB=str(db), GUNICORN_CMD_ARGS="--timeout 10") as (base, _):
        for case in CASES:
            start = time.monotonic()
            answer = raw_request(base, "POST", VALIDATE, case.text.encode(), {"Content-Type": "text/plain"}, timeout=15)
            assert time.monotonic() - start < 10, case.id
            check(case, answer)
        assert_normal_answer(http_json(base, "POST", VALIDATE, {"decklist": NORMAL_DECK}))
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "WORKER TIMEOUT" not in text, text[-2000:]
    assert text.count("Booting worker") == 2, text[-2000:]  # the two of the start, none booted again


def one_line_exports(decks: int, names: int) -> list[dict]:
    """Batch items: TappedOut exports of `names` distinct unknown names each, one line each."""
    return [{"decklist": json.dumps({"cards": "||".join(f"1 Q{deck}-{i}" for i in range(names))})}
            for deck in range(decks)]


@pytest.mark.timeout(120)
def test_a_batch_of_one_line_exports_is_bounded_by_its_entries_not_its_lines(client):
    """Nine one-line exports of 10,000 names each (957 KiB, 9 lines) took 6.5 s: the decks
    now share the batch's budget of entries too, refused as soon as the decks read pass it."""
    decks = one_line_exports(9, 10_000)
    response = client.post(BATCH, json={"decks": decks})
    body = assert_envelope(answer_of(response), 422)
    assert "first 3 decks hold 30,000 card entries and problems" in body["message"]
    normal, hostile = best_of([lambda: client.post(BATCH, json={"decks": [{"decklist": NORMAL_DECK}]}),
                               lambda: client.post(BATCH, json={"decks": decks})])
    assert hostile <= max(FLOOR_SECONDS, NORMAL_REQUESTS * normal)
    # under the budget, the same kind of batch is answered in full
    response = client.post(BATCH, json={"decks": one_line_exports(2, 1_000)})
    assert response.status_code == 200 and len(response.get_json()["results"]) == 2


# --- lone surrogates on every path into the parser --------------------------------------

# json.dumps writes \ud800 as an escape; the name is no card's, so it comes back as written
SURROGATE_EXPORT = moxfield(["No Such \ud800 Card", "Lightning Bolt"])
REPLACED = "No Such \ufffd Card"


def reported_names(report: dict) -> set[str]:
    """Every card name a report's violations name."""
    return {name for violation in report["violations"] for name in violation["cards"]}


def test_a_surrogate_in_an_export_sent_as_text_plain(client):
    answer = post_text(client, SURROGATE_EXPORT)
    assert answer.status == 200 and REPLACED in reported_names(answer.json())


def test_a_surrogate_in_an_export_sent_as_a_json_decklist(client):
    response = client.post(VALIDATE, json={"decklist": SURROGATE_EXPORT})
    assert response.status_code == 200 and REPLACED in reported_names(response.get_json())


def test_a_surrogate_in_one_batch_item_fails_neither_it_nor_the_batch(client):
    response = client.post(BATCH, json={"decks": [{"decklist": NORMAL_DECK}, {"decklist": SURROGATE_EXPORT},
                                                  {"decklist": dek('<Cards Quantity="1" Name="&#xD800;" />')}]})
    assert response.status_code == 200, response.get_data()[:300]
    first, second, third = response.get_json()["results"]
    assert {v["code"] for v in first["violations"]} == {"banned", "color_identity", "deck_size"}
    assert REPLACED in reported_names(second)
    assert "unparsed_line" in {v["code"] for v in third["violations"]}


def test_a_surrogate_in_the_page_form_field(client):
    response = client.post("/", data={"decklist": SURROGATE_EXPORT})
    page = response.get_data().decode("utf-8")  # strict: the page is valid UTF-8
    assert response.status_code == 200 and REPLACED in page


def test_a_surrogate_in_the_page_upload(client):
    data = {"decklist": "", "deckfile": (io.BytesIO(SURROGATE_EXPORT.encode("utf-8")), "deck.json")}
    response = client.post("/", data=data, content_type="multipart/form-data")
    assert response.status_code == 200 and REPLACED in response.get_data().decode("utf-8")


def test_a_surrogate_reference_in_an_xml_upload(client):
    upload = dek('<Cards Quantity="1" Name="Sol Ring &#xD800;" />').encode("utf-8")
    response = client.post("/", data={"deckfile": (io.BytesIO(upload), "deck.dek")}, content_type="multipart/form-data")
    assert response.status_code == 200 and "unparsed" in response.get_data().decode("utf-8").lower()


# --- fuzzing at the limits ---------------------------------------------------------------
# test_hostile_input.py fuzzes the API with bodies of at most 600 bytes; these reach the
# limits: lines, names and runs at and past what the readers allow, bodies near 1 MiB.

LIMIT_WRAPS = st.sampled_from(["text", "moxfield", "tappedout", "dek", "json decklist"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(line=padded(MAX_LINE_LENGTH), name=st.builds(run, RUN_UNITS, st.sampled_from([MAX_NAME_LENGTH + 1, 30_000])),
       lines=st.sampled_from([1, 100, 1_000]), wrap=LIMIT_WRAPS)
def test_bodies_at_the_limits_are_never_a_5xx(client, line, name, lines, wrap):
    text = "\n".join([line] * lines)
    if wrap == "moxfield":
        text = moxfield([name, *[f"{line[:MAX_NAME_LENGTH]} {i}" for i in range(lines)]])
    elif wrap == "tappedout":
        text = json.dumps({"cards": "||".join([f"1 {name}", *[line] * lines]), "board": text})
    elif wrap == "dek":
        escaped = line.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
        text = dek("\n".join(f'<Cards Quantity="1" Name="{escaped}" X="{name}" />' for _ in range(lines)))
    if wrap == "json decklist":
        answer = answer_of(client.post(VALIDATE, json={"decklist": text + "\n" + name}))
    else:  # a raw lone surrogate goes as the bytes Python would write for it: not UTF-8 (400)
        answer = answer_of(client.post(VALIDATE, data=text.encode("utf-8", "surrogatepass"), content_type="text/plain"))
    assert answer.status < 500, answer.body[:300]
    if answer.status >= 400:
        assert_envelope(answer, {400, 413, 422})
    else:
        for violation in answer.json()["violations"]:
            assert all(len(card) <= MAX_NAME_LENGTH for card in violation["cards"])
