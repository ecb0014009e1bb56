"""Answers in the player's language, on the real data of ../shared/carddata/foreign-names/:
a validation answered in Spanish (the list written in Spanish, `Accept-Language: es`, every
message rendered from the Spanish catalog with the cards named as printed in Spanish)
against the same list written and answered in English, through the
whole API (Flask's test client: request, language choice, validation, rendering, JSON).

The list is bench_names' 100-card Time Spiral list with Walk the Aeons in it (an extra-turn
card outside the commander's identity: its violation and bracket reason name a card), so
the answer's card names are looked up in the names table. Also: the Spanish list answered
in English, which parts the cost of reading Spanish names (bench_names' row, within 20%) from
that of answering in Spanish (within 10%).
CPU time on a shared machine is noisy, so with valgrind the same three are also counted in
instructions (cachegrind, the difference between 0 and N requests in a child process).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from bench.bench_names import PAGE, TSP, interleaved, real_store, spanish_and_english
from bench.common import Row, instructions_per_call, micros

NAME = "languages"
# The whole is reading a list in Spanish (bench_names: <= 1.20 x) and then answering in Spanish
# (<= 1.10 x): the two targets multiplied.
WHOLE = "<= 1.32 x"
VALIDATE = "/api/v1/validate"
# `count` requests after 5 warm-up ones, for cachegrind (argv: store, list file, Accept-Language or -, count).
REQUEST_CHILD = """
import sys
from pathlib import Path
from edh_service.factory import create_app
db, path, lang, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
text = Path(path).read_bytes()
client = create_app({"CARD_DB": db, "CARD_DATA_OFFLINE": True, "RATELIMIT_ENABLED": False}).test_client()
headers = {"Content-Type": "text/plain", **({"Accept-Language": lang} if lang != "-" else {})}
for _ in range(5 + count):
    assert client.post("/api/v1/validate", data=text, headers=headers).status_code == 200
"""


def lists(tsp: dict) -> tuple[str, str]:
    """bench_names' English and Spanish lists, one card each replaced by Walk the Aeons."""
    english, spanish = spanish_and_english(tsp)
    card = next(card for card in tsp["data"]["cards"] if card["name"] == "Walk the Aeons")
    written = next(entry["name"] for entry in card["foreignData"] if entry["language"] == "Spanish")
    english_lines, spanish_lines = english.splitlines(), spanish.splitlines()
    english_lines[5], spanish_lines[5] = "1 Walk the Aeons", f"1 {written}"
    return "\n".join(english_lines) + "\n", "\n".join(spanish_lines) + "\n"


def instructions_per_request(db: Path, path: Path, language: str, requests: int = 30) -> float:
    """Instructions one warm request executes (cachegrind: N requests less none)."""
    return instructions_per_call(REQUEST_CHILD, [str(db), str(path), language], requests)


def instruction_rows(db: Path, english: str, spanish: str, folder: Path) -> list[Row]:
    """The three requests in instructions (load-independent); none without valgrind."""
    if shutil.which("valgrind") is None:
        return []
    (folder / "en.txt").write_text(english, encoding="utf-8")
    (folder / "es.txt").write_text(spanish, encoding="utf-8")
    both_english = instructions_per_request(db, folder / "en.txt", "-")
    read_only = instructions_per_request(db, folder / "es.txt", "-")
    both_spanish = instructions_per_request(db, folder / "es.txt", "es")
    return [
        Row(NAME, "instructions a request (cachegrind): English list in English / Spanish list in English / "
                  "Spanish list in Spanish", f"{both_english / 1e6:.2f} / {read_only / 1e6:.2f} / "
                                             f"{both_spanish / 1e6:.2f} M"),
        Row(NAME, "written and answered in Spanish / in English, instructions (load-independent)",
            f"{both_spanish / both_english:.2f} x", WHOLE),
        Row(NAME, "answering in Spanish: the Spanish list answered in Spanish / in English, instructions",
            f"{both_spanish / read_only:.2f} x", "<= 1.10 x"),
    ]


def run() -> list[Row]:
    if not TSP.is_file() or not PAGE.is_file():
        return [Row(NAME, "skipped", "../shared/carddata/foreign-names is absent")]
    from edh_service.factory import create_app

    with tempfile.TemporaryDirectory() as tmp:
        db, tsp = real_store(Path(tmp))
        english, spanish = lists(tsp)
        app = create_app({"CARD_DB": str(db), "CARD_DATA_OFFLINE": True, "RATELIMIT_ENABLED": False})
        client = app.test_client()

        def ask(text: str, language: str | None):
            headers = {"Content-Type": "text/plain", **({"Accept-Language": language} if language else {})}

            def call():
                response = client.post(VALIDATE, data=text.encode("utf-8"), headers=headers)
                assert response.status_code == 200
                return response
            return call

        in_spanish = ask(spanish, "es")().get_json()
        assert ask(spanish, "es")().headers["Content-Language"] == "es"
        reasons = " ".join(reason["message"] for reason in in_spanish["bracket"]["reasons"])
        assert "Caminar por los eones" in reasons, reasons  # named as printed in Spanish
        english_seconds, spanish_seconds = interleaved(ask(english, None), ask(spanish, "es"), rounds=31, calls=20)
        _, read_only_seconds = interleaved(ask(english, None), ask(spanish, None), rounds=31, calls=20)
        counted = instruction_rows(db, english, spanish, Path(tmp))
    ratio = spanish_seconds / english_seconds
    return [
        Row(NAME, "POST /api/v1/validate, 100-card list in English, answered in English (CPU, median)",
            micros(english_seconds)),
        Row(NAME, "the same list in Spanish, Accept-Language: es, answered in Spanish (CPU, median)",
            micros(spanish_seconds)),
        Row(NAME, "the Spanish list answered in English (CPU, median)", micros(read_only_seconds)),
        Row(NAME, "written and answered in Spanish / in English (CPU)", f"{ratio:.2f} x", WHOLE),
        Row(NAME, "answering in Spanish: the Spanish list answered in Spanish / in English (CPU)",
            f"{spanish_seconds / read_only_seconds:.2f} x", "<= 1.10 x"),
        *counted,
    ]
