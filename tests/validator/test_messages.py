"""validator/messages.py: messages as data, rendered in English here and in any language a
Renderer gives."""

import re

from validator.messages import ENGLISH, AnyOf, Name, Names, Pairs, Term, Terms, msg, nmsg


class Shouting:
    """A made-up language: upper case, its own list words, cards renamed, no spaces between sentences."""

    def gettext(self, message):
        return re.sub(r"[^{}]+(?=\{|$)", lambda m: m[0].upper(), message)

    def ngettext(self, singular, plural, n):
        return self.gettext(singular if n == 1 else plural)

    def join(self, items, style):
        return (" / " if style == "or" else " + ").join(items)

    def number(self, n):
        return f"#{n}"

    def card(self, name):
        return {"Sol Ring": "Anillo solar"}.get(name, name)

    def sentences(self, parts):
        return "|".join(parts)


def test_english_joins_lists_and_picks_the_plural_form():
    assert msg("{cards} are banned.", cards=Names(["A", "B", "C"])).english() == "A, B and C are banned."
    assert msg("Did you mean {cards}?", cards=AnyOf(["A", "B"])).english() == "Did you mean A or B?"
    assert nmsg("{n} card", "{n} cards", 1).english() == "1 card"
    assert nmsg("{n} card", "{n} cards", 1200).english() == "1,200 cards"
    assert msg("{combos}.", combos=Pairs([("A", "B"), ("C", "D")])).english() == "A + B, C + D."


def test_a_language_renders_every_kind_of_parameter_its_own_way():
    text = msg("{card} and {cards}: {n}.", card=Name("Sol Ring"), cards=Names(["Sol Ring", "Island"]), n=3)
    assert text.render(Shouting()) == "Anillo solar AND Anillo solar + Island: #3."
    assert text.english() == "Sol Ring and Sol Ring and Island: 3."


def test_plain_text_is_shown_as_it_is_and_terms_are_translated():
    text = msg("{typed} in {format} and {formats}", typed="{card}", format=Term("brawl"), formats=Terms(["a", "b"]))
    assert text.english() == "{card} in brawl and a and b"
    assert text.render(Shouting()) == "{card} IN BRAWL AND A + B"


def test_sentences_follow_one_another_the_language_s_way():
    text = msg("One.").then(msg("Two {card}.", card=Name("Sol Ring")), msg("Three."))
    assert text.english() == "One. Two Sol Ring. Three."
    assert text.render(Shouting()) == "ONE.|TWO Anillo solar.|THREE."


def test_a_noun_phrase_parameter_is_rendered_inside_its_sentence():
    where = msg("the last card of {where}", where=msg("the sideboard"))
    assert msg("Taken from {source}.", source=where).english() == "Taken from the last card of the sideboard."
    assert msg("x", a=1).given(b=2).params == (("a", 1), ("b", 2))


def test_english_is_the_english_renderer():
    assert msg("A {n}", n=5).render(ENGLISH) == "A 5"
