"""Store and name resolution against the fixture store (offline unless a test says otherwise)."""

from __future__ import annotations

import os
import threading

import pytest

from card_data import CardDataUnavailable, CardStore, open_repository

from card_data.settings import StoreSettings
from card_data.sync import import_file
from tests.support.scryfall_server import FIXTURES


@pytest.fixture
def repository(fixture_db):
    """An offline repository over a copy of the fixture store."""
    return open_repository(StoreSettings(fixture_db, offline=True))


@pytest.mark.parametrize(("typed", "canonical"), [
    # exact and any case
    ("Sol Ring", "Sol Ring"),
    ("sol ring", "Sol Ring"),
    ("SOL RING", "Sol Ring"),
    ("  Sol   Ring ", "Sol Ring"),
    # accents folded
    ("Lim-Dul's Vault", "Lim-Dûl's Vault"),
    ("Lim-Dûl's Vault", "Lim-Dûl's Vault"),
    ("Nazgul", "Nazgûl"),
    ("nazgûl", "Nazgûl"),
    # curly and straight apostrophes
    ("Atraxa, Praetors’ Voice", "Atraxa, Praetors' Voice"),
    ("Kodama’s Reach", "Kodama's Reach"),
    ("Lim-Dul’s Vault", "Lim-Dûl's Vault"),
    # punctuation and spacing forgiven when only one card spells the same
    ("Atraxa, Praetors Voice", "Atraxa, Praetors' Voice"),
    ("Atraxa Praetors Voice", "Atraxa, Praetors' Voice"),
    ("Kodamas Reach", "Kodama's Reach"),
    ("Lim Duls Vault", "Lim-Dûl's Vault"),
    ("Fire Ice", "Fire // Ice"),
    # split cards: every slash spelling and a single half
    ("Fire // Ice", "Fire // Ice"),
    ("Fire/Ice", "Fire // Ice"),
    ("Fire /// Ice", "Fire // Ice"),
    ("Fire//Ice", "Fire // Ice"),
    ("Fire", "Fire // Ice"),
    ("ice", "Fire // Ice"),
    # double-faced, adventure, flip: full name or any face
    ("Esika, God of the Tree // The Prismatic Bridge", "Esika, God of the Tree // The Prismatic Bridge"),
    ("Esika, God of the Tree", "Esika, God of the Tree // The Prismatic Bridge"),
    ("The Prismatic Bridge", "Esika, God of the Tree // The Prismatic Bridge"),
    ("Westvale Abbey", "Westvale Abbey // Ormendahl, Profane Prince"),
    ("Ormendahl, Profane Prince", "Westvale Abbey // Ormendahl, Profane Prince"),
    ("Bonecrusher Giant", "Bonecrusher Giant // Stomp"),
    ("Stomp", "Bonecrusher Giant // Stomp"),
    ("Bonecrusher Giant/Stomp", "Bonecrusher Giant // Stomp"),
    ("Akki Lavarunner", "Akki Lavarunner // Tok-Tok, Volcano Born"),
    ("Tok-Tok, Volcano Born", "Akki Lavarunner // Tok-Tok, Volcano Born"),
    # meld: each part and the result are their own cards
    ("Bruna, the Fading Light", "Bruna, the Fading Light"),
    ("Brisela, Voice of Nightmares", "Brisela, Voice of Nightmares"),
    # flavor names resolve to the Oracle card
    ("Eleven, the Mage", "Cecily, Haunted Mage"),
    ("Godzilla, King of the Monsters", "Zilortha, Strength Incarnate"),
    # Alchemy stays distinct from paper
    ("A-Blood Artist", "A-Blood Artist"),
    ("Blood Artist", "Blood Artist"),
    # non-deck objects are still found (the rules report them)
    ("Academy at Tolaria West", "Academy at Tolaria West"),
    ("Soldier", "Soldier"),
])
def test_name_shapes_resolve_to_canonical_card(repository, typed, canonical):
    resolution = repository.resolve([typed])
    assert resolution.cards[typed].name == canonical
    assert typed not in resolution.suggestions


def test_alchemy_card_keeps_its_own_legality(repository):
    cards = repository.resolve(["A-Blood Artist", "Blood Artist"]).cards
    assert (cards["A-Blood Artist"].legality, cards["Blood Artist"].legality) == ("not_legal", "legal")


def test_batch_keys_every_input_string_exactly(repository):
    names = ["Fire", "Ice", "Fire // Ice", "Lightnig Bolt", "Sol Ring"]
    resolution = repository.resolve(names)
    assert {name: card.name for name, card in resolution.cards.items()} == {
        "Fire": "Fire // Ice", "Ice": "Fire // Ice", "Fire // Ice": "Fire // Ice", "Sol Ring": "Sol Ring",
    }
    assert list(resolution.suggestions) == ["Lightnig Bolt"]


@pytest.mark.parametrize(("typo", "suggested"), [
    ("Lightnig Bolt", "Lightning Bolt"),
    ("Counterspel", "Counterspell"),
    ("Atraxa Praetor Voice", "Atraxa, Praetors' Voice"),
    ("Rhystic Studies", "Rhystic Study"),
    ("Thrasioss", "Thrasios, Triton Hero"),  # a typo in the only word typed
    ("Thrasois, Triton Hero", "Thrasios, Triton Hero"),
])
def test_unknown_names_get_suggestions(repository, typo, suggested):
    suggestions = repository.resolve([typo]).suggestions[typo]
    assert suggestions[0] == suggested
    assert 1 <= len(suggestions) <= 3
    assert len(set(suggestions)) == len(suggestions)


@pytest.mark.parametrize("nonsense", ["", "   ", "zzzzzzzzzzzzqqqqq"])
def test_nonsense_gets_no_suggestions(repository, nonsense):
    resolution = repository.resolve([nonsense])
    assert resolution.cards == {} and resolution.suggestions == {nonsense: ()}


def test_repeat_resolves_return_cached_cards(repository):
    first = repository.resolve(["Sol Ring"]).cards["Sol Ring"]
    assert repository.resolve(["sol ring"]).cards["sol ring"] is first


def test_metadata(repository):
    meta = repository.metadata()
    assert (meta.source, meta.updated_at, meta.cards) == ("file:cards.jsonl", "2026-11-01T00:00:00+00:00", 98)


def test_describe(repository):
    described = repository.describe("fire/ice")
    assert described["name"] == "Fire // Ice"
    assert described["color_identity"] == ["U", "R"]
    assert described["legalities"] == {"commander": "legal"}
    assert [face["name"] for face in described["faces"]] == ["Fire", "Ice"]
    assert repository.describe("Eleven, the Mage")["flavor_name"] == "Eleven, the Mage"
    assert repository.describe("No Such Card At All") is None


def test_missing_store_is_unavailable_not_a_crash(tmp_path):
    repository = open_repository(StoreSettings(tmp_path / "absent.sqlite3", offline=True))
    assert repository.metadata() is None
    with pytest.raises(CardDataUnavailable) as raised:
        repository.resolve(["Sol Ring"])
    assert raised.value.retry_after > 0


def test_swapped_store_is_noticed_by_a_running_reader(tmp_path, fixture_db):
    """A long-running reader serves the new file after an atomic swap, with fresh caches."""
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    assert repository.resolve(["Sol Ring"]).cards["Sol Ring"].game_changer is False
    replacement = tmp_path / "new.jsonl"
    lines = (FIXTURES / "cards.jsonl").read_text(encoding="utf-8").splitlines()
    replacement.write_text(
        "\n".join(line.replace('"game_changer":false', '"game_changer":true') if '"name":"Sol Ring"' in line else line
                  for line in lines),
        encoding="utf-8",
    )
    import_file(fixture_db, replacement, updated_at="2026-12-01T00:00:00+00:00")
    assert repository.resolve(["Sol Ring"]).cards["Sol Ring"].game_changer is True
    assert repository.metadata().updated_at == "2026-12-01T00:00:00+00:00"


def test_readers_in_threads_each_use_their_own_connection(fixture_db):
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    results, errors = [], []

    def work():
        try:
            results.append(repository.resolve(["Fire", "Nazgul", "Sol Ring"]).cards["Nazgul"].name)
        except Exception as error:  # surfaced below: sqlite3 refuses cross-thread connections
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and results == ["Nazgûl"] * 8


def test_store_is_opened_read_only(fixture_db):
    before = os.stat(fixture_db).st_mtime_ns
    open_repository(StoreSettings(fixture_db, offline=True)).resolve(["Sol Ring", "Unknown Thing"])
    assert os.stat(fixture_db).st_mtime_ns == before


# -- misses through /cards/collection ------------------------------------------------------


@pytest.fixture
def online(fixture_db, scryfall_server):
    """A repository that asks the local server about misses, without waiting on rate limits."""
    repository = open_repository(StoreSettings(fixture_db, api_url=scryfall_server.base_url))
    return repository


def test_miss_is_fetched_cached_and_not_asked_again(online, scryfall_server, fixture_db):
    resolution = online.resolve(["Cyclonic Rift", "Sol Ring"])
    assert resolution.cards["Cyclonic Rift"].game_changer is True
    assert scryfall_server.paths("POST") == ["/cards/collection"]
    assert scryfall_server.requests[-1].body == {"identifiers": [{"name": "Cyclonic Rift"}]}
    # cached in the store file: a fresh offline repository finds it
    assert open_repository(StoreSettings(fixture_db, offline=True)).resolve(["cyclonic rift"]).cards["cyclonic rift"].name == "Cyclonic Rift"
    online.resolve(["Cyclonic Rift"])
    assert scryfall_server.paths("POST") == ["/cards/collection"]
    assert online.metadata().cards == 99


def test_not_found_is_remembered_and_suggested(online, scryfall_server):
    first = online.resolve(["Lightnig Bolt"])
    second = online.resolve(["Lightnig Bolt"])
    assert first.suggestions["Lightnig Bolt"][0] == second.suggestions["Lightnig Bolt"][0] == "Lightning Bolt"
    assert scryfall_server.paths("POST") == ["/cards/collection"]  # the miss was remembered


def test_names_are_sent_cleaned(online, scryfall_server):
    online.resolve(["Arcane   Denial", "Nope Nope"])
    assert scryfall_server.requests[-1].body == {"identifiers": [{"name": "Arcane Denial"}, {"name": "Nope Nope"}]}


def test_offline_never_asks(fixture_db, scryfall_server):
    repository = open_repository(StoreSettings(fixture_db, api_url=scryfall_server.base_url, offline=True))
    assert "Cyclonic Rift" in repository.resolve(["Cyclonic Rift"]).suggestions
    assert scryfall_server.requests == []


def test_rate_limited_miss_is_unknown_and_unavailable_never_an_error(online, scryfall_server):
    scryfall_server.fail_next = [429]
    resolution = online.resolve(["Cyclonic Rift"])
    assert resolution.cards == {} and resolution.unavailable == ("Cyclonic Rift",)
    assert online.client.limits.lockout_remaining() > 25  # the 429 locked the budget out
    # names in the store still resolve during the lockout, without a request
    assert online.resolve(["Sol Ring"]).cards["Sol Ring"].name == "Sol Ring"
    assert len(scryfall_server.paths("POST")) == 1


def test_write_to_missing_store_is_skipped(tmp_path):
    store = CardStore(tmp_path / "absent.sqlite3")
    store.add_cards([({"name": "X", "type_line": "Instant"}, [])])
    assert not (tmp_path / "absent.sqlite3").exists()



def test_a_loose_spelling_two_cards_share_is_not_guessed():
    from card_data.repository import SuggestionIndex

    index = SuggestionIndex(["fire // ice", "fireice", "sol ring"], ["Fire // Ice", "Fireice", "Sol Ring"])
    assert index.loose_match("fire, ice") is None  # "Fire // Ice" and "Fireice" both spell it
    assert index.loose_match("sol-ring") == "Sol Ring"


def test_a_long_typed_name_is_compared_with_the_long_keys_alone_and_finds_the_same_shortlist():
    """SuggestionIndex compares a name of 4n characters or more with the keys of n or more
    only: no shorter key can reach QRatio's cutoff. Keys of every length around the bound
    (QRatio 40 exactly at a quarter), with ties, give the shortlist a scan of every key gives."""
    from rapidfuzz import fuzz, process

    from card_data.repository import SuggestionIndex

    keys = [letter * n + tail for n in range(1, 62) for letter in "ab" for tail in ("", " x")]
    index = SuggestionIndex(keys, keys)
    assert fuzz.QRatio("a" * 80, "a" * 20) == 40 and fuzz.QRatio("a" * 80, "a" * 19) < 40
    checked = 0
    for length in (*range(60, 201, 3), 64, 80, 96, 128, 192):
        for key in ("a" * length, "ab" * (length // 2), "a" * (length - 30) + " x" * 15):
            everything = process.extract(key, keys, scorer=fuzz.QRatio, limit=index.SHORTLIST,
                                         score_cutoff=index.QRATIO_CUTOFF)
            assert index.closest(key) == {i for _, _, i in everything}, (length, key[:20])
            checked += bool(everything)
    assert checked > 100  # most of them have a shortlist to compare
    # right at each step's bound, with keys no longer than the step: the key of a quarter
    # the length scores exactly 40 and must stay in the shortlist
    for least in SuggestionIndex.LENGTH_STEPS:
        short = [letter * n for n in range(1, least + 1) for letter in "ab"]
        at_step = SuggestionIndex(short, short)
        for length in range(4 * least - 5, 4 * least + 2):
            everything = process.extract("a" * length, short, scorer=fuzz.QRatio, limit=at_step.SHORTLIST,
                                         score_cutoff=at_step.QRATIO_CUTOFF)
            assert at_step.closest("a" * length) == {i for _, _, i in everything}, (least, length)
    # and a long one really scans fewer keys: 100 characters, the keys of 24 or more
    assert len(index._qratio_choices(100)[0]) == sum(len(k) >= 24 for k in keys) < len(keys)


def test_typed_names_are_normalized_once_per_store_file_and_the_memo_is_bounded(
        tmp_path, fixture_db, monkeypatch):
    """The name -> key memo belongs to one store file: bounded, and empty after a swap."""
    from card_data.store import cards as store

    monkeypatch.setattr(store, "MAX_MEMO_NAMES", 3)
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    typed = ["sol ring", "Lim-Dul's Vault", "NAZGUL"]
    assert {n: c.name for n, c in repository.resolve(typed).cards.items()} == {
        "sol ring": "Sol Ring", "Lim-Dul's Vault": "Lim-Dûl's Vault", "NAZGUL": "Nazgûl"}
    memo = repository.store.snapshot().generation.keys_by_name
    assert memo == {"sol ring": "sol ring", "Lim-Dul's Vault": "lim-dul's vault", "NAZGUL": "nazgul"}
    # a fourth name starts the memo over instead of growing it; the answers stay the same
    assert repository.resolve(["Kodama’s Reach", "sol ring"]).cards["Kodama’s Reach"].name == "Kodama's Reach"
    assert len(memo) <= 3 and memo["Kodama’s Reach"] == "kodama's reach"
    import_file(fixture_db, FIXTURES / "cards.jsonl", updated_at="2026-12-01T00:00:00+00:00")
    assert repository.store.snapshot().generation.keys_by_name == {}
    assert repository.resolve(["SOL RING"]).cards["SOL RING"].name == "Sol Ring"


def test_names_resolved_before_are_answered_from_a_bounded_memo_of_the_store_file(fixture_db, monkeypatch):
    """name as typed -> Card: a deck sent again resolves without normalizing or querying;
    unknown names are never memoized, and the memo is bounded and dropped on a swap."""
    from card_data.store import cards as store

    monkeypatch.setattr(store, "MAX_MEMO_NAMES", 3)
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    first = repository.resolve(["sol ring", "Nazgul", "No Such Card At All"])
    memo = repository.store.snapshot().generation.cards_by_name
    assert {n: c.name for n, c in memo.items()} == {"sol ring": "Sol Ring", "Nazgul": "Nazgûl"}
    queries = []
    with monkeypatch.context() as patched:
        patched.setattr(store.Snapshot, "lookup", lambda self, keys: queries.append(keys) or {})
        again = repository.resolve(["Nazgul", "sol ring"])
    assert again.cards == {"Nazgul": first.cards["Nazgul"], "sol ring": first.cards["sol ring"]}
    assert list(again.cards) == ["Nazgul", "sol ring"] and again.suggestions == {} and queries == []
    assert again.metadata == first.metadata
    # repeats and unknown names take the general path, with the same answers as before
    repeated = repository.resolve(["sol ring", "sol ring", "No Such Card At All"])
    assert list(repeated.cards) == ["sol ring"] and list(repeated.suggestions) == ["No Such Card At All"]
    assert repository.resolve(["Fire", "Lim-Dul's Vault"]).cards["Fire"].name == "Fire // Ice"
    assert len(memo) <= 3  # full: started over instead of growing
    import_file(fixture_db, FIXTURES / "cards.jsonl", updated_at="2026-12-01T00:00:00+00:00")
    assert repository.store.snapshot().generation.cards_by_name == {}


def test_store_metadata_is_read_again_only_when_the_file_may_have_changed(fixture_db, monkeypatch):
    """Resolution.metadata comes from a per-file cache while the file is untouched and quiet;
    a write in place (cached fetches rewrite the card count) is seen at once."""
    import sqlite3
    from contextlib import closing

    from card_data.store import cards as store

    old = os.stat(fixture_db).st_mtime - 60
    os.utime(fixture_db, (old, old))
    repository = open_repository(StoreSettings(fixture_db, offline=True))
    assert repository.resolve(["Sol Ring"]).metadata.cards == 98
    reads = []
    read_meta = store._read_meta
    monkeypatch.setattr(store, "_read_meta", lambda conn: reads.append(1) or read_meta(conn))
    assert repository.resolve(["Sol Ring"]).metadata.cards == 98 and repository.metadata().cards == 98
    assert reads == []
    with closing(sqlite3.connect(fixture_db)) as conn, conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'cards'")
    assert repository.resolve(["Sol Ring"]).metadata.cards == 99
    repository.resolve(["Sol Ring"])
    assert len(reads) == 2  # just written: read every time until the file is quiet
