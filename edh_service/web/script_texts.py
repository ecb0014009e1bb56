"""Every text static/app.js writes, in the page's language: index.html renders `script_texts()`
as JSON in `<body data-texts>` (data, not code: the CSP allows no inline script) and the
script reads it, so app.js holds no English of its own.

Texts stay templates: app.js fills their `%(name)s` placeholders (with text or nodes) and
reads `%%` as `%`. A plural text is its forms by CLDR plural category (texts.plural_forms),
which the browser's Intl.PluralRules picks from.
"""

from __future__ import annotations

from functools import cache

from flask_babel import get_translations, gettext

from card_data.names.printed import LANGUAGE_NAMES
from edh_service.web.forms import field_labels
from edh_service.web.texts import color_names, language, plural_forms, printed_language, type_name, TYPE_WORDS
from validator.brackets import BRACKET_NAMES


def ngettext(singular: str, plural: str) -> dict[str, str]:
    """A plural text's forms, unfilled (named so that make i18n extracts it as gettext's)."""
    translations = get_translations()
    return plural_forms(lambda n: translations.ngettext(singular, plural, n))


def npgettext(context: str, singular: str, plural: str) -> dict[str, str]:
    """A plural text with a context ("role": the format's word for a commander), its forms."""
    translations = get_translations()
    return plural_forms(lambda n: translations.unpgettext(context, singular, plural, n))


def script_texts() -> dict:
    """What app.js says, by key, in the page's language (worked out once a process per language:
    the catalogs do not change while it runs)."""
    return _texts(language())


@cache
def _texts(code: str) -> dict:
    """script_texts for the language `code` (the current request's)."""
    return {
        "lang": code,
        "colors": color_names(),
        "types": {kind: type_name(kind) for kind in TYPE_WORDS},
        "languages": {code: printed_language(code) for code in LANGUAGE_NAMES},
        "brackets": {number: gettext(name) for number, name in BRACKET_NAMES.items()},
        "app": gettext("Commander deck validator"),
        "error": gettext("Error"),
        "warning": gettext("Warning"),
        "error_mark": gettext("error:"),
        "warning_mark": gettext("warning:"),
        "opens_scryfall": gettext("(opens Scryfall in a new tab)"),
        "opens_site": gettext("(opens %(site)s in a new tab)"),
        "could_not_read": gettext("Could not read %(file)s."),
        "house_rules_line": gettext("Line %(line)s of your table's rules is not one of name:, banned:, banned as "
                                    "commander:, unbanned: or max bracket: followed by its value."),
        "house_rules_both": gettext("Choose a house rules profile or write your table's rules, not both."),
        "legal": gettext("Legal"),
        "not_legal": gettext("Not legal"),
        "legal_house": gettext("Legal under the house rules"),
        "not_legal_house": gettext("Not legal under the house rules"),
        "legal_named": gettext("Legal under %(name)s's rules"),
        "not_legal_named": gettext("Not legal under %(name)s's rules"),
        "legal_named_s": gettext("Legal under %(name)s' rules"),
        "not_legal_named_s": gettext("Not legal under %(name)s' rules"),
        "house_rules": gettext("House rules"),
        "your_rules": gettext("Your table's rules"),
        "with_profile": gettext("%(name)s (profile %(profile)s)"),
        "house_counts": gettext("%(rules)s: %(banned)s banned, %(banned_as_commander)s banned as commander, "
                                "%(unbanned)s unbanned"),
        "house_counts_max": gettext("%(rules)s: %(banned)s banned, %(banned_as_commander)s banned as commander, "
                                    "%(unbanned)s unbanned, max bracket %(max_bracket)s"),
        "none_found": gettext("none found"),
        "format": gettext("Format"),
        "color_identity": gettext("Color identity"),
        "companion": gettext("Companion"),
        "cards": gettext("Cards"),
        "count_of": gettext("%(count)s of %(size)s"),
        "read_as": gettext("Read as"),
        "in_every_format": gettext("In every format"),
        "statuses": {"legal": gettext("legal"), "not_legal": gettext("not legal"),
                     "unknown": gettext("unknown (the card data can't say)")},
        "minimum": gettext("Minimum Commander Bracket: %(minimum)s"),
        "minimum_checked": gettext("Minimum Commander Bracket: %(minimum)s; checked against bracket %(declared)s "
                                   "(%(name)s)"),
        "not_loaded": gettext("Not checked: no data (the list is not loaded)."),
        "none": gettext("none"),
        "game_changers": gettext("Game Changers"),
        "mass_land_denial": gettext("Mass land denial"),
        "extra_turns": gettext("Extra turns"),
        "two_card_combos": gettext("Two-card combos"),
        "why_bracket": gettext("Why bracket %(bracket)s"),
        "not_checked": gettext("Not checked: no data."),
        "rule": gettext("rule %(rule)s"),
        "line": gettext("Line %(line)s"),
        "line_prefix": gettext("Line"),
        "did_you_mean": gettext("Did you mean:"),
        "read_in": gettext("read in %(language)s as"),
        "problems": gettext("Problems (%(errors)s, %(warnings)s)"),
        "no_problems": gettext("No problems found"),
        "summary": gettext("%(verdict)s: %(errors)s, %(warnings)s."),
        "your_list": gettext("Your list"),
        "marked": gettext("Lines with a problem are marked."),
        "could_not_validate": gettext("Could not validate"),
        "read_from": gettext("Read from %(deck)s on %(site)s, as of %(time)s: the deck as it was judged."),
        "read_from_declared": gettext("Read from %(deck)s on %(site)s, as of %(time)s: the deck as it was judged, "
                                      "declared bracket %(bracket)s."),
        "fields": field_labels(),
        "field_is": gettext("The %(label)s field%(rest)s"),
        "house_rules_field": gettext("House rules, %(field)s"),
        "server_answered": gettext("The server answered %(status)s."),
        "not_loaded_yet": gettext("Card data is not loaded yet."),
        "paste_first": gettext("Paste a decklist or choose a file first."),
        "validating": gettext("Validating…"),
        "unreachable": gettext("The validator could not be reached. Check your connection and try again."),
        "mana_curve": gettext("Mana curve"),
        "curve_description": gettext("Nonland cards by mana value: %(values)s."),
        "mana_value": gettext("Mana value"),
        "nonland_cards": gettext("Nonland cards"),
        "color_balance": gettext("Color balance"),
        "colors_description": gettext("Colored mana symbols in costs against lands producing each color: "
                                      "%(colors)s."),
        "color_said": gettext("%(color)s: %(symbols)s (%(percent)s%%), %(lands)s of %(total)s lands"),
        "share": gettext("%(count)s (%(percent)s%%)"),
        "color": gettext("Color"),
        "symbols_in_costs": gettext("Symbols in costs"),
        "lands_producing": gettext("Lands producing it"),
        "legend": gettext("Upper bar: the color's share of the colored symbols in costs. Lower bar: lands that can "
                          "make it in this deck (Command Tower and the like: your commander's colors; a fetch land "
                          "makes none itself)."),
        "card_types": gettext("Card types"),
        "types_description": gettext("Cards by type: %(types)s."),
        "card_type": gettext("Card type"),
        "as_table": gettext("%(chart)s as a table"),
        "deck_overview": gettext("Deck overview"),
        "overview_summary": gettext("%(cards)s counted (commanders and main deck): %(lands)s, %(other)s other."),
        "cards_by_type": gettext("Cards by type"),
        "plural": {
            "errors": ngettext("%(num)s error", "%(num)s errors"),
            "warnings": ngettext("%(num)s warning", "%(num)s warnings"),
            "loaded": ngettext("Loaded %(file)s (%(num)s line).", "Loaded %(file)s (%(num)s lines)."),
            "retry": ngettext("Try again in %(num)s second.", "Try again in %(num)s seconds."),
            "cards": ngettext("%(num)s card", "%(num)s cards"),
            "lands": ngettext("%(num)s land", "%(num)s lands"),
            "symbols": ngettext("%(num)s symbol", "%(num)s symbols"),
            "card_label": ngettext("Card:", "Cards:"),
            "line_label": ngettext("Line:", "Lines:"),
            "commander": npgettext("role", "Commander", "Commanders"),
            "oathbreaker": npgettext("role", "Oathbreaker", "Oathbreakers"),
            "signature_spells": ngettext("Signature spell", "Signature spells"),
        },
    }
