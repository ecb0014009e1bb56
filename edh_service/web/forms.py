"""The page's form: what a person submitted (read_form), the same request as a POST
/api/v1/validate body (api_fields), and the API's field errors and the engine's "field not
in this format" said with the form's labels."""

from __future__ import annotations

from flask import request
from flask_babel import gettext, ngettext

from edh_service import decoding, deck_urls
from edh_service.api import schemas
from edh_service.house_rules import HouseRulesError, read_text_form
from edh_service.i18n.app import renderer
from edh_service.web.texts import N_, commander_label
from validator.formats import FieldNotInFormat
from validator.messages import msg
from validator.parse import FORMATS

MAX_COMMANDER_FIELDS = 2  # the form offers a commander and a partner
MAX_SIGNATURE_FIELDS = 2  # and a signature spell for each of two oathbreakers


def read_form() -> dict:
    """The submitted fields; an uploaded file, when one was chosen, replaces the textarea."""
    text = request.form.get("decklist", "")
    upload = request.files.get("deckfile")
    if upload is not None and upload.filename:
        text = decode_upload(upload.read())
    commanders = [name.strip() for name in request.form.getlist("commanders")[:MAX_COMMANDER_FIELDS]]
    spells = [name.strip() for name in request.form.getlist("signature_spells")[:MAX_SIGNATURE_FIELDS]]
    return {
        "text": text,
        "url": deck_urls.link_alone(text) or "",  # a box holding one link alone: the deck it names
        "format": request.form.get("format", "") if request.form.get("format") in FORMATS else "",
        "commanders": [name for name in commanders if name],
        "companion": request.form.get("companion", "").strip(),
        "signature_spells": [name for name in spells if name],
        "bracket": request.form.get("bracket", "").strip(),
        "game_format": request.form.get("game_format", "").strip(),
        "house_profile": request.form.get("house_profile", "").strip(),
        "house_rules": request.form.get("house_rules", ""),
    }


def api_fields(form: dict) -> dict:
    """The form as a POST /api/v1/validate body (empty fields left out; a link alone is `url`)."""
    body = {"url": form["url"]} if form.get("url") else {"decklist": form["text"]}
    if form["format"]:
        body["decklist_format"] = form["format"]
    if form["commanders"]:
        body["commanders"] = form["commanders"]
    if form["companion"]:
        body["companion"] = form["companion"]
    if form.get("signature_spells"):
        body["signature_spells"] = form["signature_spells"]
    if form["bracket"] == "none":
        body["bracket"] = None  # no bracket checked, not even the one a deck link declares
    elif form["bracket"]:
        # a number for the schema to range-check; anything else it refuses as it stands
        body["bracket"] = schemas.integer(form["bracket"]) if form["bracket"].isdecimal() else form["bracket"]
    if form.get("game_format"):  # the game format; the form's `format` is the list's syntax
        body["format"] = form["game_format"]
    written = form.get("house_rules", "").strip()
    if form.get("house_profile") and written:
        raise HouseRulesError(gettext("Choose a house rules profile or write your table's rules, not both."))
    if form.get("house_profile"):
        body["house_rules"] = form["house_profile"]
    elif written:
        body["house_rules"] = read_text_form(written)  # HouseRulesError names a line it cannot read
    return body


# The API's field names as the form labels them, for error messages a person reads (in the
# page's language: field_labels; "commanders" and "signature_spells" are the singulars of
# plural texts, which gettext alone would not find).
FIELD_LABELS = {"decklist": N_("Decklist"), "url": N_("Link"), "decklist_format": N_("List format"),
                "commanders": "Commander", "companion": N_("Companion"), "bracket": N_("Bracket"),
                "format": N_("Game format"), "signature_spells": "Signature spell", "house_rules": N_("House rules")}


def field_labels() -> dict[str, str]:
    """FIELD_LABELS in the page's language."""
    labels = {field: gettext(label) for field, label in FIELD_LABELS.items()}
    labels["commanders"] = commander_label()
    labels["signature_spells"] = ngettext("Signature spell", "Signature spells", 1)
    return labels


def field_not_in_format(error: FieldNotInFormat) -> str:
    """The engine names a field the format has no use for by its API key; the page by its
    label, in the page's language, as app.js does (`signature_spells applies only...` -> `The
    Signature spell field applies only...`)."""
    label = field_labels().get(error.field)
    if label is None:
        return error.text.render(renderer())
    said = dict(error.text.params)
    return msg("The {label} field applies only in {formats}, not in {format} ({key}).", label=label,
               formats=said["formats"], format=said["format"], key=said["key"]).render(renderer())


def describe_errors(messages: dict) -> str:
    """marshmallow's {field: [messages]} (nested for lists) as one sentence per field; the
    house rules' fields each with their own label ("House rules, max bracket: ...")."""
    def flatten(value) -> list[str]:
        if isinstance(value, dict):
            return [text for item in value.values() for text in flatten(item)]
        if isinstance(value, (list, tuple)):
            return [text for item in value for text in flatten(item)]
        return [str(value)]

    said = []
    labels = field_labels()
    for field, value in messages.items():
        if field == "house_rules" and isinstance(value, dict):
            said += [f"{gettext('House rules, %(field)s', field=key.replace('_', ' '))}: {' '.join(flatten(item))}"
                     for key, item in value.items()]
        else:
            said.append(f"{labels.get(field, field)}: {' '.join(flatten(value))}")
    return " ".join(said)


def decode_upload(data: bytes) -> str:
    """The file as the CLI reads it (decoding.decode_file: UTF-16/32 by BOM, UTF-8, else
    Windows-1252); a stray byte must not refuse the whole list."""
    try:
        return decoding.decode_file(data)
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")
