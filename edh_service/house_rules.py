"""House rules (DESIGN.md "House rules"): a table's own bans, unbans, banned-as-commander
list and bracket, sent with a request or kept by the operator as a profile
(edh_service/house_profiles.py), bounded, read and resolved into the engine's
`validator.formats.HouseRules` (canonical names).

- `HouseList`: the rules as written (names as typed), from a request's object, the page's
  text box (`read_text_form`) or a profile file.
- `resolve(...)`: the names resolved as list names are (any language, faces, flavor
  names: CardRepository.resolve), in one batch. A name that resolves to no card is
  UnresolvedNames, with suggestions.

No flask here: the service, the page and edh-validate share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from card_data import CardRepository, Deadline
from validator.deck import Candidates
from validator.formats import HouseRules
from validator.messages import AnyOf, Names, Text, msg
from validator.phrasing import or_list

# Bounds, so no house list costs more than its size allows (the request bounds' style,
# edh_service/api/schemas.py): a list sent with a request, one profile, the folder.
LISTS = ("banned", "banned_as_commander", "unbanned")
MAX_LIST_NAMES = 500  # names in each list sent with a request (a longer list is a profile's job)
MAX_BATCH_NAMES = 2_000  # names in the distinct lists a batch sends, in all
MAX_PROFILE_NAMES = 20_000  # names in all of one profile's lists
MAX_PROFILE_BYTES = 2 * 1024 * 1024
MAX_PROFILES = 200  # profile files read from the folder; more are reported and skipped
MAX_TEXT_LENGTH = 200  # a list's name or a profile's title
MAX_DESCRIPTION_LENGTH = 1_000
HOUSE_BRACKETS = range(1, 5)  # max_bracket: 1-4 (5, cEDH, is no limit)
PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}\Z")  # a profile's name: its file's stem
SUGGEST_LIMIT = 20  # unknown names of one list given "did you mean" (each costs ~10 ms)
RECENT_LISTS = 64  # lists sent with requests kept resolved (each at most 3 x MAX_LIST_NAMES names)
_recent: dict[tuple, Any] = {}  # (HouseList, store build) -> its HouseRules or the error it raised


class HouseRulesError(ValueError):
    """House rules that cannot be used as given: `errors` says where in them (the API's 422
    puts it under the house_rules field)."""

    def __init__(self, message: str | Text, errors: Any = None) -> None:
        self.text = message if isinstance(message, Text) else None  # the answer's language renders it
        super().__init__(message.english() if isinstance(message, Text) else message)
        self.errors = errors if errors is not None else [message]


class UnknownProfile(HouseRulesError):
    """A profile name the folder has no (readable) file for; the message lists the known ones."""


class UnresolvedNames(HouseRulesError):
    """House-rules names that resolve to no card, each with its suggestions (or, for a name
    printed for several cards, its candidates). `unavailable`: those the card database was
    not asked about in time (the answer may change within a minute: never kept)."""

    def __init__(self, message: str | Text, errors: Any = None, unavailable: tuple[str, ...] = ()) -> None:
        super().__init__(message, errors)
        self.unavailable = unavailable


@dataclass(frozen=True)
class HouseList:
    """House rules as written: names as typed, in order, each list without repeats."""

    banned: tuple[str, ...] = ()
    banned_as_commander: tuple[str, ...] = ()
    unbanned: tuple[str, ...] = ()
    max_bracket: int | None = None
    name: str | None = None
    profile: str | None = None  # the profile it was read from (None: sent with a request)

    @classmethod
    def of(cls, data: Mapping[str, Any], profile: str | None = None) -> "HouseList":
        """From a loaded request object (api/house_schemas.py checked its shape and bounds)."""
        lists = {key: tuple(dict.fromkeys(name.strip() for name in data.get(key) or () if name.strip()))
                 for key in LISTS}
        return cls(**lists, max_bracket=data.get("max_bracket"), name=(data.get("name") or "").strip() or None,
                   profile=profile)

    def names(self) -> list[str]:
        """Every distinct name, in list order."""
        return list(dict.fromkeys((*self.banned, *self.banned_as_commander, *self.unbanned)))

    def counts(self) -> dict[str, int]:
        """How many names each list holds."""
        return {key: len(getattr(self, key)) for key in LISTS}


# --- resolving names -------------------------------------------------------------------------


def resolved(house: HouseList | HouseRules, repository: CardRepository, build: str | None = None, *,
             lookup: Deadline | None = None) -> HouseRules:
    """The engine's HouseRules for a list sent with a request (or rules already resolved),
    kept for the store build (`build`: the deck's Resolution's) among the RECENT_LISTS last:
    a site sends the same list with every request, a batch with each deck. Raises
    UnresolvedNames (kept too, unless the card database did not answer in time). A
    profile's are house_profiles.Profile.rules, kept per version."""
    if isinstance(house, HouseRules):
        return house
    key = (house, build)
    held = _recent.get(key) if build is not None else None
    if held is None:
        try:
            held = resolve(house, repository, lookup=lookup)
        except HouseRulesError as error:
            held = error
        if build is not None and not getattr(held, "unavailable", ()):
            if len(_recent) >= RECENT_LISTS:
                _recent.clear()  # bounded: a flood of distinct lists costs time, never memory
            _recent[key] = held
    return answer(held)


def answer(held: HouseRules | HouseRulesError) -> HouseRules:
    """The rules, or the error they resolved to, raised again."""
    if isinstance(held, HouseRulesError):
        raise held
    return held


def resolve(house: HouseList, repository: CardRepository, *, lookup: Deadline | None = None) -> HouseRules:
    """Resolve every name of the list in one batch; canonical names out. Raises
    UnresolvedNames naming every name that is no card (with suggestions), or
    HouseRulesError for a card both banned and unbanned."""
    names = house.names()
    resolution = repository.resolve(names, lookup=lookup, suggest_limit=SUGGEST_LIMIT)
    cards = resolution.cards
    missing = [name for name in names if name not in cards]
    if missing:
        raise _unresolved(house, missing, resolution.suggestions, resolution.unavailable)
    canonical = {key: frozenset(cards[name].name for name in getattr(house, key)) for key in LISTS}
    both = sorted(canonical["banned"] & canonical["unbanned"])
    if both:
        message = (msg("The house rules profile {profile} both bans and unbans {cards}; a card is one or the other.",
                       profile=repr(house.profile), cards=Names(both)) if house.profile else
                   msg("The house rules both ban and unban {cards}; a card is one or the other.", cards=Names(both)))
        raise HouseRulesError(message, {"unbanned": [message]})
    return HouseRules(**canonical, max_bracket=house.max_bracket, name=house.name, profile=house.profile)


def _unresolved(house: HouseList, missing: Sequence[str], suggestions: Mapping[str, Sequence[str]],
                unavailable: Sequence[str]) -> UnresolvedNames:
    """The error naming every house-rules name that is no card, by list."""
    said: list[tuple[str, str]] = []  # (the name quoted, a hint)
    by_list: dict[str, list[dict[str, Any]]] = {}
    for name in missing:
        offered = tuple(suggestions.get(name, ()))
        if isinstance(suggestions.get(name), Candidates):
            hint = f" (printed for several cards: {or_list(offered)})"
        elif name in unavailable:
            hint = " (the card database did not answer in time to be asked; try again in a minute)"
        else:
            hint = f" (did you mean {or_list(offered)}?)" if offered else ""
        said.append((f'"{name}"', hint))
        for key in LISTS:
            if name in getattr(house, key):
                by_list.setdefault(key, []).append({"name": name, "suggestions": list(offered)})
    who = _whose(house, "names", "name")
    if len(said) == 1:
        message: str | Text = _one_unresolved(house, missing[0], suggestions, unavailable)
    else:
        shown = "; ".join(quoted + hint for quoted, hint in said[:10])
        more = "" if len(said) <= 10 else f"; and {len(said) - 10} more"
        message = f"{who} {len(said)} names that are no card: {shown}{more}."
    return UnresolvedNames(message, by_list, tuple(name for name in missing if name in unavailable))


def _one_unresolved(house: HouseList, name: str, suggestions: Mapping[str, Sequence[str]],
                    unavailable: Sequence[str]) -> Text:
    """The sentence for one house-rules name that is no card: whose rules, and why or what instead."""
    offered = AnyOf(suggestions.get(name, ()))
    key = ("several" if isinstance(suggestions.get(name), Candidates) else "unavailable" if name in unavailable
           else "offered" if offered else "none", bool(house.profile))
    return Text(UNRESOLVED[key].id, (("name", name), ("cards", offered), ("profile", repr(house.profile))))


# One house-rules name that is no card: (why, named by a profile) -> its sentence.
UNRESOLVED = {
    ("none", False): msg('The house rules name "{name}", which is no card.'),
    ("offered", False): msg('The house rules name "{name}", which is no card (did you mean {cards}?).'),
    ("several", False): msg('The house rules name "{name}", which is no card (printed for several cards: {cards}).'),
    ("unavailable", False): msg('The house rules name "{name}", which is no card (the card database did not answer '
                                'in time to be asked; try again in a minute).'),
    ("none", True): msg('The house rules profile {profile} names "{name}", which is no card.'),
    ("offered", True): msg('The house rules profile {profile} names "{name}", which is no card (did you mean '
                           '{cards}?).'),
    ("several", True): msg('The house rules profile {profile} names "{name}", which is no card (printed for several '
                           'cards: {cards}).'),
    ("unavailable", True): msg('The house rules profile {profile} names "{name}", which is no card (the card database '
                               'did not answer in time to be asked; try again in a minute).'),
}


def _whose(house: HouseList, one: str, many: str) -> str:
    """"The house rules ban" or "The house rules profile 'x' bans": who says it, and the verb."""
    return f"The house rules profile {house.profile!r} {one}" if house.profile else f"The house rules {many}"


# --- the page's text box ---------------------------------------------------------------------

TEXT_KEYS = {"name": "name", "banned": "banned", "banned as commander": "banned_as_commander",
             "unbanned": "unbanned", "max bracket": "max_bracket"}
_SPACES = re.compile(r"[\s_-]+")
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as a browser's textarea and app.js break lines


def read_text_form(text: str) -> dict[str, Any]:
    """The page's "your table's rules" box as a request's house_rules object: one `key:
    value` line each (name, banned, banned as commander, unbanned, max bracket; any case,
    `_` or `-` for spaces; a list's key may repeat). Names are separated by commas, or by
    semicolons on a line that holds one (for names with a comma in them). Blank lines and
    `#` comments are skipped. static/app.js (parseHouseRules) reads it the same way.
    Raises HouseRulesError naming the first line it cannot read."""
    rules: dict[str, Any] = {}
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        field_name = TEXT_KEYS.get(_SPACES.sub(" ", key.strip().lower()))
        if not colon or field_name is None:
            raise HouseRulesError(msg("Line {line} of your table's rules is not one of name:, banned:, banned as "
                                      "commander:, unbanned: or max bracket: followed by its value.", line=str(number)))
        value = value.strip()
        if field_name == "max_bracket":  # a number for the schema to range-check; anything else it refuses
            rules[field_name] = (int(value) if len(value) < 10 else 10 ** 10) if value.isascii() and value.isdigit() \
                else value
        elif field_name == "name":
            rules[field_name] = value
        else:
            separator = ";" if ";" in value else ","
            rules.setdefault(field_name, []).extend(name.strip() for name in value.split(separator) if name.strip())
    return rules
