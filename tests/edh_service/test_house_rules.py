"""House rules' service side without HTTP: the profiles' folder (edh_service/house_profiles.py:
reading, re-reading, broken files, bounds), resolution once per profile version, and the
page's text form (edh_service/house_rules.py read_text_form)."""

from __future__ import annotations

import os
import time

import pytest

from card_data import StoreSettings, open_repository
from edh_service import house_profiles, house_rules
from edh_service.house_profiles import Profiles, read_profile
from card_data.repository import Resolution
from edh_service.house_rules import HouseList, HouseRulesError, UnknownProfile, UnresolvedNames, read_text_form
from validator.deck import Candidates
from tests.support.house_store import house_store, write_profile


@pytest.fixture(scope="module")
def repository(tmp_path_factory):
    return open_repository(StoreSettings(house_store(tmp_path_factory.mktemp("house-store")), offline=True))


@pytest.fixture
def folder(tmp_path):
    path = tmp_path / "profiles"
    path.mkdir()
    return path


def counting(repository, monkeypatch) -> list:
    """Every list of names the repository is asked to resolve, in order."""
    asked = []
    real = repository.resolve

    def resolve(names, **kwargs):
        names = list(names)
        asked.append(names)
        return real(names, **kwargs)

    monkeypatch.setattr(repository, "resolve", resolve)
    return asked


# --- reading profiles --------------------------------------------------------------------------


def test_a_profile_file(folder):
    path = write_profile(folder, "store", 'title = "The store"\nname = "ignored for the title"\n'
                                          'banned = [" Sol Ring ", "Sol Ring"]\nmax_bracket = 3\n')
    profile = read_profile(path)
    assert profile.name == "store" and profile.title == "The store"
    assert profile.house == HouseList(banned=("Sol Ring",), max_bracket=3, name="The store", profile="store")


def test_a_profile_without_a_title_is_named_by_its_name_then_its_file(folder):
    assert read_profile(write_profile(folder, "a", 'name = "Cube night"\n')).house.name == "Cube night"
    assert read_profile(write_profile(folder, "b", "")).house.name == "b"


@pytest.mark.parametrize(("data", "why"), [
    (b"\xff\xfe", "not UTF-8 text (byte 0)"),
    (b'banned = ["Sol Ring"\nunbanned = []\n', "not valid TOML: Unclosed array (at line 2, column 1)"),
    (b"max_bracket = 3.0\n", "max_bracket is 3.0; it is a whole number from 1 to 4"),
    (b"max_bracket = true\n", "max_bracket is True; it is a whole number from 1 to 4"),
    (b'unbanned = ["Sol Ring", 3]\n', "unbanned is not a list of card names"),
    (b'banned = ["  "]\n', "banned holds a name of 0 characters; a name has 1 to 200"),
    (b"title = 3\n", "title is not text of at most 200 characters"),
    (b'[banned]\nx = 1\n', "banned is not a list of card names"),
    (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", "not valid TOML: nested too deeply"),
])
def test_a_broken_profile_says_why(data, why):
    with pytest.raises(HouseRulesError) as error:
        house_profiles.profile_from_bytes(data, "x")
    assert why in str(error.value)


def test_a_profile_over_its_byte_bound_is_not_read(folder, monkeypatch):
    monkeypatch.setattr(house_profiles, "MAX_PROFILE_BYTES", 100)
    path = write_profile(folder, "long", "# " + "x" * 200 + "\n")
    with pytest.raises(HouseRulesError, match="over"):
        read_profile(path)


# --- the folder ----------------------------------------------------------------------------------


def test_the_folder_serves_good_files_and_reports_the_rest(folder, caplog):
    write_profile(folder, "good", 'banned = ["Sol Ring"]\n', age=5)
    write_profile(folder, "bad", "banned = [\n", age=5)
    (folder / "Bad Name.toml").write_text("")
    (folder / "notes.txt").write_text("not a profile")
    os.mkdir(folder / "dir.toml")
    caplog.set_level("WARNING")
    shelf = Profiles(folder)
    assert shelf.names() == ["good"]
    status = shelf.status()
    assert status["profiles"] == 1
    assert [(b["file"], b["error"].split(":")[0]) for b in status["broken"]] == [
        ("Bad Name.toml", "the file's name is no profile name (a-z, 0-9, - and _, up to 64, then .toml)"),
        ("bad.toml", "not valid TOML"), ("dir.toml", "[Errno 21] Is a directory")]
    assert caplog.text.count("is not served") == 3
    shelf.status()
    assert caplog.text.count("is not served") == 3  # each error logged once, not on every look


def test_a_broken_file_fixed_serves_again_and_a_good_one_broken_stops(folder):
    write_profile(folder, "p", "banned = [\n", age=5)
    shelf = Profiles(folder)
    with pytest.raises(UnknownProfile, match="could not be read"):
        shelf.get("p")
    write_profile(folder, "p", 'banned = ["Sol Ring"]\n')
    assert shelf.get("p").house.banned == ("Sol Ring",)
    write_profile(folder, "p", "banned = [\n")
    with pytest.raises(UnknownProfile, match=r"could not be read \(not valid TOML"):
        shelf.get("p")


def test_a_missing_folder_is_reported_not_a_crash(tmp_path):
    shelf = Profiles(tmp_path / "absent")
    assert shelf.listing() == [] and shelf.status() == {
        "profiles": 0, "broken": [{"file": "", "error": "the folder cannot be read"}]}
    with pytest.raises(UnknownProfile, match="none is configured"):
        shelf.get("x")


def test_a_folder_holds_a_bounded_number_of_profiles(folder, monkeypatch):
    monkeypatch.setattr(house_profiles, "MAX_PROFILES", 2)
    for name in "abc":
        write_profile(folder, name, "", age=5)
    shelf = Profiles(folder)
    assert shelf.names() == ["a", "b"]
    assert shelf.status()["broken"] == [{"file": "c.toml", "error": "not read: the folder holds more than 2 profiles"}]


def test_a_settled_profile_costs_one_stat_and_is_the_same_object(folder, monkeypatch):
    write_profile(folder, "p", 'banned = ["Sol Ring"]\n', age=5)
    shelf = Profiles(folder)
    first = shelf.get("p")
    opened = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda *a, **k: opened.append(a) or real_open(*a, **k))
    assert shelf.get("p") is first and opened == []


def test_rewritten_with_the_same_bytes_is_the_same_version(folder, repository, monkeypatch):
    write_profile(folder, "p", 'banned = ["Sol Ring"]\n', age=5)
    shelf = Profiles(folder)
    first = shelf.get("p")
    first.rules(repository, "build")
    write_profile(folder, "p", 'banned = ["Sol Ring"]\n')  # saved again, unchanged
    assert shelf.get("p") is first and first.resolved[0] == "build"
    write_profile(folder, "p", 'banned = ["Counterspell"]\n')
    assert shelf.get("p") is not first and shelf.get("p").house.banned == ("Counterspell",)


def test_a_change_within_one_mtime_tick_is_seen(folder):
    """Same size, same mtime: an unsettled file's bytes decide, not its stamp."""
    path = write_profile(folder, "p", 'banned = ["Sol Ring"]\n')
    shelf = Profiles(folder)
    stat = os.stat(path)
    with open(path, "r+b") as handle:  # rewritten in place, same length, mtime put back
        handle.write(b'banned = ["Sol Rinh"]\n')
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert shelf.get("p").house.banned == ("Sol Rinh",)


# --- resolving ------------------------------------------------------------------------------------


def test_a_profile_resolves_once_per_version_and_store_build(folder, repository, monkeypatch):
    write_profile(folder, "p", 'banned = ["Contrahechizo", "Eleven, the Mage"]\nunbanned = ["Primeval Titan"]\n',
                  age=5)
    shelf = Profiles(folder)
    asked = counting(repository, monkeypatch)
    rules = [shelf.get("p").rules(repository, "build-1") for _ in range(5)]
    assert all(r is rules[0] for r in rules) and len(asked) == 1
    assert rules[0].banned == frozenset({"Counterspell", "Cecily, Haunted Mage"})
    assert rules[0].unbanned == frozenset({"Primeval Titan"}) and rules[0].profile == "p" and rules[0].name == "p"
    shelf.get("p").rules(repository, "build-2")  # a new store build: asked again, once
    shelf.get("p").rules(repository, "build-2")
    assert len(asked) == 2


def test_a_profiles_unknown_names_are_not_asked_again_per_request(folder, repository, monkeypatch):
    write_profile(folder, "p", 'banned = ["Sol Rnig"]\n', age=5)
    shelf = Profiles(folder)
    asked = counting(repository, monkeypatch)
    for _ in range(3):
        with pytest.raises(UnresolvedNames) as error:
            shelf.get("p").rules(repository, "build")
    assert len(asked) == 1
    assert error.value.errors == {"banned": [{"name": "Sol Rnig", "suggestions": ["Sol Ring"]}]}


def test_inline_rules_are_kept_resolved_per_store_build(repository, monkeypatch):
    """A site sends the same list with every request (a batch with each deck): resolved once a build."""
    monkeypatch.setattr(house_rules, "_recent", {})
    asked = counting(repository, monkeypatch)
    house = HouseList.of({"banned": ["Sol Ring"], "name": " Home "})
    first = house_rules.resolved(house, repository, "build")
    assert house_rules.resolved(HouseList.of({"banned": ["Sol Ring"], "name": "Home"}), repository, "build") is first
    assert len(asked) == 1 and first.name == "Home" and first.profile is None
    house_rules.resolved(house, repository, "next build")
    assert len(asked) == 2
    for _ in range(2):
        with pytest.raises(UnresolvedNames):
            house_rules.resolved(HouseList(banned=("Sol Rnig",)), repository, "build")
    assert len(asked) == 3  # the error is kept as well


def test_the_kept_inline_rules_are_bounded(repository, monkeypatch):
    monkeypatch.setattr(house_rules, "_recent", {})
    for number in range(house_rules.RECENT_LISTS + 1):
        house_rules.resolved(HouseList(banned=("Sol Ring",), name=str(number)), repository, "build")
    assert len(house_rules._recent) == 1


def test_an_ambiguous_printed_name_is_no_guess():
    """Italian "Eliminare" is printed for Cancel and Wipe Away: the 422 lists both, never picks one."""
    class Printed:
        def resolve(self, names, **kwargs):
            return Resolution({}, {"Eliminare": Candidates(("Cancel", "Wipe Away"))})

    with pytest.raises(UnresolvedNames) as error:
        house_rules.resolve(HouseList(unbanned=("Eliminare",)), Printed())
    assert str(error.value) == ('The house rules name "Eliminare", which is no card (printed for several cards: '
                                "Cancel or Wipe Away).")
    assert error.value.errors == {"unbanned": [{"name": "Eliminare", "suggestions": ["Cancel", "Wipe Away"]}]}


# --- the page's text form -------------------------------------------------------------------------


def test_the_text_form():
    text = """\
# our table
name: Thursday at the store
banned: Sol Ring, Mana Crypt
Banned: Counterspell
banned as commander: Atraxa, Praetors' Voice; Edgar Markov
BANNED_AS-COMMANDER:
unbanned:Primeval Titan ,
max bracket: 3
"""
    assert read_text_form(text) == {
        "name": "Thursday at the store", "banned": ["Sol Ring", "Mana Crypt", "Counterspell"],
        "banned_as_commander": ["Atraxa, Praetors' Voice", "Edgar Markov"], "unbanned": ["Primeval Titan"],
        "max_bracket": 3}


@pytest.mark.parametrize(("text", "loaded"), [
    ("", {}),
    ("max bracket: three", {"max_bracket": "three"}),  # the schema refuses it, saying so
    ("max bracket: 99999999999", {"max_bracket": 10 ** 10}),
    ("max bracket: ³", {"max_bracket": "³"}),
])
def test_the_text_forms_values_go_to_the_schema_as_written(text, loaded):
    assert read_text_form(text) == loaded


@pytest.mark.parametrize("text", ["Sol Ring", "banished: Sol Ring", "banned Sol Ring"])
def test_a_text_form_line_it_cannot_read_is_named(text):
    with pytest.raises(HouseRulesError, match="Line 1 of your table's rules"):
        read_text_form(text)


def test_a_file_is_settled_a_second_after_its_last_write():
    assert house_profiles._settled((0, 0, time.time_ns() - 2 * 10 ** 9, 0))
    assert not house_profiles._settled((0, 0, time.time_ns(), 0))
