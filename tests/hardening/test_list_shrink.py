"""A synced list that loses more than half its entries at once is refused: an export holding
one two-card combo replaced the whole combo list (1,698 -> 1). The last list stays, the log
and `cards status` say why, /readyz says the update was refused; the operator may accept
it (LIST_SHRINK_ALLOWED=1, `cards brackets --allow-shrink`)."""

from __future__ import annotations

import logging

from card_data.lists import refresh as bracket_lists
from card_data.store.list_tables import TWO_CARD_COMBOS
from card_data.settings import BracketSources
from edh_service.cli import cards
from tests.support.apps import offline_app

PAIRS = 200


def combos_file(path, pairs: int):
    path.write_text("".join(f"Qzv Card {n}@Qzv Other {n}\n" for n in range(pairs)))
    return path


def test_a_combo_list_under_half_its_size_is_refused_unless_allowed(fixture_db, tmp_path, caplog):
    full, one = combos_file(tmp_path / "full.txt", PAIRS), combos_file(tmp_path / "one.txt", 1)
    assert bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(full)), network=False)[
        TWO_CARD_COMBOS].list_status.entries == PAIRS
    half = combos_file(tmp_path / "half.txt", PAIRS // 2)  # exactly half: accepted
    assert bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(half)), network=False)[
        TWO_CARD_COMBOS].status == "updated"
    combos_file(full, PAIRS)
    bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(full)), network=False)
    with caplog.at_level(logging.WARNING, logger="card_data.lists.refresh"):
        refused = bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(one)), network=False)[TWO_CARD_COMBOS]
    assert refused.status == "failed" and refused.list_status.entries == PAIRS
    assert refused.error.startswith(bracket_lists.SHRUNK) and "from 200 to 1" in refused.error
    assert "from 200 to 1" in caplog.text
    with offline_app(fixture_db).test_client() as client:
        combos = client.get("/readyz").get_json()["bracket_lists"]["two_card_combos"]
    assert combos == {"entries": PAIRS, "updated_at": combos["updated_at"], "update_refused": True}
    allowed = bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(one), allow_shrink=True), network=False)
    assert allowed[TWO_CARD_COMBOS].status == "updated" and allowed[TWO_CARD_COMBOS].list_status.entries == 1
    with offline_app(fixture_db).test_client() as client:
        assert "update_refused" not in client.get("/readyz").get_json()["bracket_lists"]["two_card_combos"]


def test_the_operator_accepts_a_shrink_with_the_setting_or_the_flag(fixture_db, tmp_path, monkeypatch, capsys):
    bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(combos_file(tmp_path / "full.txt", PAIRS))),
                          network=False)
    monkeypatch.setenv("COMBOS_FILE", str(combos_file(tmp_path / "one.txt", 1)))
    monkeypatch.setenv("SCRYFALL_API_URL", "http://127.0.0.1:9")  # the other lists fail fast, offline
    cards.main(["brackets", "--db", str(fixture_db)])
    assert "shrank from 200 to 1" in capsys.readouterr().err
    status = bracket_lists.bracket_tables.status(fixture_db)[TWO_CARD_COMBOS]
    assert status.entries == PAIRS and status.error.startswith(bracket_lists.SHRUNK)
    cards.main(["brackets", "--db", str(fixture_db), "--allow-shrink"])
    assert bracket_lists.bracket_tables.status(fixture_db)[TWO_CARD_COMBOS].entries == 1
    bracket_lists.refresh(fixture_db, BracketSources(combos_file=str(tmp_path / "full.txt")), network=False)
    monkeypatch.setenv("LIST_SHRINK_ALLOWED", "1")
    cards.main(["brackets", "--db", str(fixture_db)])
    assert bracket_lists.bracket_tables.status(fixture_db)[TWO_CARD_COMBOS].entries == 1
