"""The page in the player's language (DESIGN.md "Answers in the player's language"): every text
of the page translated in every language, the language chosen by Accept-Language, `?lang=` and
the menu's cookie, said in Content-Language and <html lang>, and app.js given its words."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from edh_service.i18n.app import COOKIE
from tests.support.factories import ILLEGAL_DECK
from tests.support.page_catalog import (OTHER_LANGUAGES, WEB, english_left, page_messages, placeholders,
                                        translations)


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_the_page_has_texts_to_translate():
    """The extraction finds the page's texts (templates, views, charts and app.js's)."""
    ids = {key[0] if isinstance(key[0], str) else key[0][0] for key in page_messages()}
    assert {"Commander deck validator", "Validate deck", "Mana curve", "Page not found", "Validating…",
            "%(num)s error"} <= ids
    assert len(ids) > 150


@pytest.mark.parametrize("code", OTHER_LANGUAGES)
def test_every_page_text_is_translated(code):
    """Every text of the page has a translation in the language: not empty, not fuzzy, every
    plural form written, the English text's placeholders exactly."""
    catalog = translations(code)
    problems = []
    for key in page_messages():
        message = catalog.get(key)
        if message is None:
            problems.append(f"missing: {key}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {key}")
        if isinstance(key[0], tuple):
            wanted = set(placeholders(key[0][1])) - {"%(num)s"}
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if not all(forms):
                problems.append(f"empty plural form: {key}")
            problems += [f"placeholders: {key} -> {form}" for form in forms
                         if not wanted <= set(placeholders(form)) <= set(placeholders(key[0][1]))]
        elif not message.string:
            problems.append(f"empty: {key}")
        elif placeholders(message.string) != placeholders(key[0]):
            problems.append(f"placeholders: {key} -> {message.string}")
    assert problems == []


def test_app_js_holds_no_english_of_its_own():
    """app.js writes only the words the page hands it: no string in its code (comments aside)
    is one of the page's English texts or starts like an English sentence."""
    source = (WEB / "static" / "app.js").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S)
    literals = {a or b for a, b in re.findall(r'"((?:[^"\\\n]|\\.)*)"|`([^`]*)`', code)}
    english = {key[0] for key in page_messages() if isinstance(key[0], str)}
    assert literals & english - {"none"} == set()  # "none": the bracket select's value, not a text
    quoted = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)  # no English sentence in a plain string either
    assert [text for text in quoted if re.search(r"^[A-Z][a-z]+ [a-z]+ [a-z]+", text)] == []


@pytest.mark.parametrize(("header", "code"), (("es-MX,es;q=0.9,en;q=0.5", "es"), ("ja", "ja"), ("de-AT", "de"),
                                              ("zh-TW", "zh-Hant"), ("xx", "en"), (None, "en")))
def test_the_page_follows_accept_language(client, header, code):
    response = client.get("/", headers={"Accept-Language": header} if header else {})
    soup = soup_of(response)
    assert response.headers["Content-Language"] == code
    assert "Accept-Language" in response.headers["Vary"]
    assert soup.html["lang"] == code
    assert json.loads(soup.body["data-texts"])["lang"] == code
    assert soup.find("option", selected=True, attrs={"lang": code}).get("value") == code  # the menu says which


def test_the_verdict_in_spanish_and_japanese(client):
    """The no-JavaScript verdict: the page's words in the language, nothing English of them left."""
    for code, verdict in (("es", "No legal"), ("ja", "不適正")):
        response = client.post("/", data={"decklist": ILLEGAL_DECK}, headers={"Accept-Language": code})
        soup = soup_of(response)
        assert soup.find(id="result-heading").get_text() == verdict
        assert soup.title.get_text().endswith(translations(code)[("Commander deck validator", None)].string)
        for kept in soup.select(".message, a.card, code, pre, textarea, .format-verdict strong, #judged-format, "
                                "select#game-format, select#bracket, li.reason, select#format, .text"):
            kept.decompose()  # the engine's messages and the format and bracket names are not the page's texts
        text = soup.get_text(" ")
        left = [pattern for pattern in english_left(code) if re.search(pattern, text)]
        assert left == []


def test_lang_in_the_query_sets_the_cookie_the_page_then_follows(client):
    response = client.get("/?lang=ja", headers={"Accept-Language": "es"})
    assert response.headers["Content-Language"] == "ja"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=ja;") and "SameSite=Lax" in cookie and "Max-Age=" in cookie
    again = client.get("/", headers={"Accept-Language": "es"})  # the cookie beats the browser's languages
    assert again.headers["Content-Language"] == "ja"
    assert soup_of(again).html["lang"] == "ja"
    # a form post keeps the chosen language (the cookie), and the form carries ?lang= for a browser without cookies
    assert client.post("/", data={"decklist": ILLEGAL_DECK}).headers["Content-Language"] == "ja"
    assert soup_of(client.get("/?lang=ko")).find(id="deck-form")["action"].endswith("?lang=ko")


def test_an_unknown_lang_sets_no_cookie(client):
    response = client.get("/?lang=xx", headers={"Accept-Language": "fr"})
    assert "Set-Cookie" not in response.headers
    assert response.headers["Content-Language"] == "en"  # the query decides, and falls back to English


def test_the_language_menu_names_each_language_in_itself(client):
    soup = soup_of(client.get("/", headers={"Accept-Language": "ru"}))
    menu = soup.find("form", class_="language-menu")
    assert menu["method"] == "get"
    options = {option["value"]: (option.get_text(), option["lang"]) for option in menu.find_all("option")}
    assert options["es"] == ("Español", "es") and options["ja"] == ("日本語", "ja") and options["zh-Hant"] == ("繁體中文", "zh-Hant")
    assert menu.find("label", attrs={"for": "language"}).get_text() == "Язык"


@pytest.mark.parametrize(("path", "code", "title"), (("/no-such-page", "ja", "ページが見つかりません"),
                                                      ("/no-such-page", "es", "Página no encontrada"),
                                                      ("/healthz", "de", None)))
def test_error_pages_in_the_language(client, path, code, title):
    """An address with no page: a page in the language (405 too); the API's own envelope stays JSON."""
    response = client.get(path, headers={"Accept-Language": code}) if title else client.post(path)
    if title is None:
        assert response.status_code == 405 and response.is_json
        return
    assert response.status_code == 404 and response.headers["Content-Language"] == code
    soup = soup_of(response)
    assert soup.html["lang"] == code and soup.h1.get_text() == title
    assert client.get("/api/v1/no-such-thing", headers={"Accept-Language": code}).is_json


def test_the_footer_date_in_words(client):
    footer = soup_of(client.get("/", headers={"Accept-Language": "es"})).find("footer").get_text(" ")
    assert re.search(r"1 de noviembre de 2026, 0?0:00 UTC", footer), footer
    footer = soup_of(client.get("/", headers={"Accept-Language": "ja"})).find("footer").get_text(" ")
    assert "2026年11月1日" in footer, footer
