"""Redis keys (``server.store.keys``)."""

from __future__ import annotations

from server.store.keys import Keys


def test_keys_share_hash_tags() -> None:
    keys = Keys("p:")
    assert keys.game("abc") == "p:g:{abc}" and keys.game_log("abc") == "p:g:{abc}:log"
    assert keys.player("Alice") == keys.player("alice") == "p:pl:{alice}"
    assert keys.board("crescent", "all").startswith("p:lb:{crescent}")
    assert keys.board_players("crescent", "2026-01-01").startswith("p:lb:{crescent}")
    rated = [
        keys.ratings("crescent"),
        keys.rating_board("crescent"),
        keys.rating_race("crescent", "r1"),
    ]
    assert all(k.startswith("p:rt:{crescent}") for k in rated)  # one script's keys
