"""Messages as data (DESIGN.md "Answers in the player's language"): every sentence the engine
writes is a `Text`, a message id (the English sentence, with named `{placeholders}`) and its
parameters, never a finished string. The service renders it in the request's language from
gettext catalogs (edh_service/i18n); `Text.english()` renders it in English here, with no
catalog, so the validator stays pure and its English reports need nothing else.

A message id is a whole sentence: a translator never sees a fragment. A violation that says
two things carries two sentences (`Text.then`). Parameters say what they hold, so each
language can show them its own way:

- `Name`: a card's English name, shown as the card is printed in the answer's language;
- `Names` / `AnyOf`: card names joined "A, B and C" / "A, B or C" (each a `Name`);
- `Terms`: words of the vocabulary joined as a list, each translated;
- `Pairs`: pairs of card names, "A + B, C + D" (two-card combos);
- `Term`: a word of the rules vocabulary ("Duel Commander", "colorless"), translated alone;
- `int`: a number, written the language's way;
- `str`: text shown as it is (what the list wrote, color letters, rule numbers);
- `Text`: a noun phrase with parameters of its own ("the last card of {where}"), rendered first.

`msg` and `nmsg` are the only ways to build one, and the catalogs' extraction looks for them
(`msg("...")`, `nmsg("...", "...", n)`, `Term("...")`; babel.cfg): a message id must be a
literal at the call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol, TypeAlias, final

from mypy_extensions import mypyc_attr


@mypyc_attr(native_class=False)  # a str or tuple subclass: a plain Python class where compiled
class Name(str):
    """A card's English (Oracle) name inside a message."""

    __slots__ = ()


@mypyc_attr(native_class=False)  # a str or tuple subclass: a plain Python class where compiled
class Term(str):
    """A word of the rules vocabulary or a format's name, translated as a unit."""

    __slots__ = ()


@mypyc_attr(native_class=False)  # a str or tuple subclass: a plain Python class where compiled
class Names(tuple[str, ...]):
    """Card names joined as a list: "A", "A and B", "A, B and C"."""

    __slots__ = ()
    style = "standard"


@mypyc_attr(native_class=False)  # a str or tuple subclass: a plain Python class where compiled
class AnyOf(Names):
    """Card names joined as alternatives: "A", "A or B", "A, B or C"."""

    __slots__ = ()
    style = "or"


@mypyc_attr(native_class=False)  # a str or tuple subclass: a plain Python class where compiled
class Terms(Names):
    """Words of the vocabulary joined as a list: "Commander and Brawl" (each a `Term`)."""

    __slots__ = ()


@mypyc_attr(native_class=False)  # a str or tuple subclass: a plain Python class where compiled
class Pairs(tuple[tuple[str, str], ...]):
    """Pairs of card names (two-card combos): "A + B, C + D"."""

    __slots__ = ()


Value: TypeAlias = "str | int | Names | Pairs | Text"


class Renderer(Protocol):
    """What a language gives a message: its catalog and its ways with lists and numbers."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def join(self, items: list[str], style: str) -> str: ...

    def number(self, n: int) -> str: ...

    def card(self, name: str) -> str: ...

    def sentences(self, parts: list[str]) -> str: ...


@final
@dataclass(slots=True, init=False)
class Text:
    """One sentence (or more, through `more`) as data: the message id, its plural id and
    count when its wording depends on a number, and its parameters by name. Built for every
    message, it is a record as validator.deck_facts.Deck is (Final fields, `__init__` written out)."""

    id: Final[str]
    params: Final[tuple[tuple[str, Value], ...]]
    plural: Final[str | None]
    n: Final[int]
    more: Final[tuple[Text, ...]]

    def __init__(self, id: str, params: tuple[tuple[str, Value], ...] = (), plural: str | None = None, n: int = 0,
                 more: tuple[Text, ...] = ()) -> None:
        self.id = id
        self.params = params
        self.plural = plural
        self.n = n
        self.more = more

    def given(self, **params: Value) -> Text:
        """This text with more parameters (a reader's `why`, given its line and text last)."""
        return Text(self.id, self.params + tuple(params.items()), self.plural, self.n, self.more)

    def then(self, *sentences: Text) -> Text:
        """This text followed by more whole sentences."""
        return Text(self.id, self.params, self.plural, self.n, self.more + sentences)

    def render(self, language: Renderer) -> str:
        """The text in a language."""
        parts = [self._sentence(language)]
        parts += [sentence.render(language) for sentence in self.more]
        return language.sentences(parts) if self.more else parts[0]

    def english(self) -> str:
        """The text in English, with no catalog."""
        return self.render(ENGLISH)

    def _sentence(self, language: Renderer) -> str:
        template = (language.gettext(self.id) if self.plural is None
                    else language.ngettext(self.id, self.plural, self.n))
        if not self.params:
            return template
        return template.format_map({key: _shown(value, language) for key, value in self.params})


def _shown(value: Value, language: Renderer) -> str:
    if isinstance(value, Text):
        return value.render(language)
    if isinstance(value, Pairs):
        return language.join([f"{language.card(a)} + {language.card(b)}" for a, b in value], "unit")
    if isinstance(value, Terms):
        return language.join([language.gettext(term) for term in value], value.style)
    if isinstance(value, Names):
        return language.join([language.card(name) for name in value], value.style)
    if isinstance(value, Name):
        return language.card(value)
    if isinstance(value, Term):
        return language.gettext(value)
    if isinstance(value, int):
        return language.number(value)
    return value


def msg(message_id: str, **params: Value) -> Text:
    """A sentence: `msg("{card} is banned in {format}.", card=Name(...), format=Term(...))`."""
    return Text(message_id, tuple(params.items()))


def nmsg(singular: str, plural: str, n: int, **params: Value) -> Text:
    """A sentence whose wording depends on `n` (given to it as `{n}`): each language picks
    its own plural form (Russian has three, Japanese one)."""
    return Text(singular, (("n", n), *params.items()), plural, n)


class _English:
    """English without a catalog: the message ids are the English sentences."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def join(self, items: list[str], style: str) -> str:
        if len(items) < 2:
            return "".join(items)
        if style == "unit":
            return ", ".join(items)
        word = " or " if style == "or" else " and "
        return ", ".join(items[:-1]) + word + items[-1]

    def number(self, n: int) -> str:
        return f"{n:,}"

    def card(self, name: str) -> str:
        return name

    def sentences(self, parts: list[str]) -> str:
        return " ".join(parts)


ENGLISH: Renderer = _English()
