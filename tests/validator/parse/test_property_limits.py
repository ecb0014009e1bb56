"""Properties at the size limits (issue 19): test_property.py fuzzes parse() with small
lists; these build every reader's input at and just past what it allows (the longest
line, name, attribute and comment, the most card entries and tags, bodies near 1 MiB)
from the same syntax fragments, and check that only DecklistError escapes, every
non-blank line is still accounted for, no entry name is over MAX_NAME_LENGTH or holds a
character UTF-8 cannot write, and no message quotes more than a snippet of the input.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.validator.parse.test_property import FRAGMENTS, unaccounted
from validator.parse import MAX_LINE_LENGTH, MAX_LINES, MAX_NAME_LENGTH, DecklistError, parse
from validator.parse.common import MAX_ENTRIES
from validator.parse.xml import MAX_XML_TAGS

MIB = 1024 * 1024
LONGEST_MESSAGE = 1_000  # a message quotes a snippet (60 characters) and at most two names

# Lengths around each limit: at it, one past it, and far past it.
NAME_LENGTHS = st.sampled_from([1, MAX_NAME_LENGTH - 1, MAX_NAME_LENGTH, MAX_NAME_LENGTH + 1, 30_000])
LINE_LENGTHS = st.sampled_from([MAX_LINE_LENGTH - 1, MAX_LINE_LENGTH, MAX_LINE_LENGTH + 1, 50_000])
# What a hostile run is made of: blanks, name characters, and each decoration's characters.
RUN_UNITS = st.sampled_from([" ", "a", "1", "|", "/", " /", "(", "[", "*", "^", "#", "<a ", "&#", "=", "\t", "\u3000",
                             "\ud800", "a b='", "x1 "])


def run(unit: str, length: int) -> str:
    """`unit` repeated to exactly `length` characters."""
    return (unit * (length // len(unit) + 1))[:length]


@st.composite
def padded(draw, length) -> str:
    """A fragment-built line stretched to `length` by a run of one unit, somewhere inside."""
    head = draw(st.sampled_from(["", "1 ", "1x ", "SB: 1 ", "COMMANDER: ", "1 A|AB|", "1 A (C21) ", "# ", "cdr: "]))
    tail = draw(st.sampled_from(["", "Z", " *CMDR*", "|C21|1", " (C21) 1", " [Ramp]", " ^a^", " x2", " # !Commander"]))
    filler = run(draw(RUN_UNITS), max(0, length - len(head) - len(tail)))
    return head + filler + tail


def check(text: str, format: str | None = None) -> None:
    """The properties every input must keep (module docstring)."""
    try:
        decklist = parse(text, format)
        missing = unaccounted(text, format)
    except DecklistError:
        return  # refusing outright is allowed; any other exception fails the test
    assert missing == []
    for entry in decklist.entries:
        assert len(entry.name) <= MAX_NAME_LENGTH
        entry.name.encode("utf-8")
    for problem in decklist.problems:
        assert len(problem.message) <= LONGEST_MESSAGE, problem.message[:200]
        problem.message.encode("utf-8")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lengths=st.lists(LINE_LENGTHS, min_size=1, max_size=6), data=st.data(),
       format=st.sampled_from([None, "text", "arena", "moxfield", "archidekt", "forge", "xmage"]))
def test_text_lines_at_the_line_limit(lengths, data, format):
    check("\n".join(data.draw(padded(length)) for length in lengths), format)


@settings(max_examples=80, deadline=None)
@given(length=NAME_LENGTHS, unit=RUN_UNITS, site=st.sampled_from(["moxfield", "archidekt", "mtgjson", "tappedout",
                                                                   "aetherhub", "csv", "dek", "cod", "banner"]))
def test_a_name_at_the_name_limit_in_every_reader(length, unit, site):
    name = run(unit, length)
    quoted = json.dumps(name)
    text = {
        "moxfield": '{"boards": {"mainboard": {"cards": {"a": {"quantity": 1, "card": {"name": ' + quoted + "}}}}}}",
        "archidekt": '{"categories": [], "cards": [{"quantity": 1, "categories": ["Ramp"], '
                     '"card": {"oracleCard": {"name": ' + quoted + "}}}]}",
        "mtgjson": '{"data": {"mainBoard": [{"count": 1, "name": ' + quoted + "}]}}",
        "tappedout": json.dumps({"cards": f"1 {name}||1 Sol Ring"}),
        "aetherhub": '{"convertedDeck": [{"quantity": 1, "name": ' + quoted + "}]}",
        "csv": 'Count,Name\n1,"' + name.replace('"', '""') + '"',
        "dek": f'<?xml version="1.0"?>\n<Deck>\n<Cards Quantity="1" Name="{_attribute(name)}" />\n</Deck>',
        "cod": f'<cockatrice_deck>\n<zone name="main">\n<card number="1" name="{_attribute(name)}"/>\n</zone>\n'
               "</cockatrice_deck>",
        "banner": f'<cockatrice_deck>\n<bannerCard>{_attribute(name)}</bannerCard>\n<comments>cdr: {_attribute(name)}'
                  '</comments>\n<zone name="main">\n<card number="1" name="Sol Ring"/>\n</zone>\n</cockatrice_deck>',
    }[site]
    check(text)


def _attribute(text: str) -> str:
    """Text escaped for an XML attribute or element."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


@settings(max_examples=60, deadline=None)
@given(length=LINE_LENGTHS, unit=RUN_UNITS, broken=st.booleans(),
       element=st.sampled_from(['<Cards Quantity="1" {run} Name="Sol Ring" />', '<card number="1" name="x" {run}/>',
                                '<Cards Quantity="1" Name="{run}"/>', "<?xml version=\"1.0\"{run}?>"]))
def test_xml_attributes_and_declarations_at_the_line_limit(length, unit, broken, element):
    line = element.replace("{run}", _attribute(run(unit, length)))
    prefix = "" if line.startswith("<?xml") else '<?xml version="1.0"?>\n'
    check(prefix + line + "\n<Deck>\n" + ("<broken\n" if broken else "") + "</Deck>")


@settings(max_examples=40, deadline=None)
@given(count=st.sampled_from([1, 2, MAX_ENTRIES, MAX_ENTRIES + 1]), shape=st.sampled_from(["tappedout", "dek", "mox"]))
def test_the_most_card_entries_a_document_may_hold(count, shape):
    if shape == "tappedout":
        text = json.dumps({"cards": "||".join(["1 Opt"] * count)})
    elif shape == "dek":
        text = '<?xml version="1.0"?>\n<Deck>' + '<Cards Quantity="1" Name="Opt"/>' * count + "</Deck>"
    else:
        text = '{"boards": {"mainboard": {"cards": {' + ", ".join(
            f'"k{i}": {{"quantity": 1, "card": {{"name": "Opt"}}}}' for i in range(count)) + "}}}}"
    check(text)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(fragment=st.sampled_from(FRAGMENTS + ["1 Sol Ring|C21|1", "<a ", "1 A|AB|" + " " * 900 + "Z",
                                             '<Cards Quantity="1" Name="Opt"/>', "<a/>" * 4]),
       wrap=st.sampled_from(["none", "json", "xml"]))
def test_bodies_of_about_1_mib(fragment, wrap):
    # as many lines as the limit allows, each as long as needed to reach ~1 MiB in all
    per_line = max(1, min(MAX_LINE_LENGTH, MIB // MAX_LINES // max(1, len(fragment))))
    line = fragment * per_line
    count = max(1, min(MAX_LINES - 10, MIB // max(1, len(line) + 1)))
    if wrap == "xml":  # and at most as many tags as the XML reader takes
        count = max(1, min(count, (MAX_XML_TAGS - 10) // max(1, line.count("<"))))
    text = "\n".join([line] * count)
    if wrap == "json":
        text = json.dumps({"cards": text, "board": text})
    elif wrap == "xml":
        text = '<?xml version="1.0"?>\n<Deck>\n' + text + "\n</Deck>"
    check(text)
