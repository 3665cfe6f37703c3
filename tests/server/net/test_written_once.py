"""Things written once: the signed-in check (every op but the public ones), the game
status names, the race channel's message."""

from __future__ import annotations

from pathlib import Path

import pytest

import protocol as P
from server.patience import registry
from server.services import catalogue
from server.services.race_news import RaceNews
from tests.support.client import TestClient

#: a well-formed request of every op that needs a signed-in player
SIGNED_IN: dict[P.Op, dict[str, object]] = {
    P.Op.START: {"game": "crescent", "mode": "practice"},
    P.Op.RESUME: {"game_id": "abc"},
    P.Op.MOVE: {"game_id": "abc", "seq": 0, "move": {"action": "shift"}},
    P.Op.UNDO: {"game_id": "abc", "seq": 0},
    P.Op.RESIGN: {"game_id": "abc"},
    P.Op.HINT: {"game_id": "abc"},
    P.Op.AUTO: {"game_id": "abc", "seq": 0},
    P.Op.FINISH: {"game_id": "abc", "seq": 0},
    P.Op.MY_GAMES: {},
    P.Op.RACE_CREATE: {"game": "crescent"},
    P.Op.RACE_JOIN: {"code": "ABCDEF"},
    P.Op.RACE_START: {"race_id": "abc"},
    P.Op.RACE_LEAVE: {"race_id": "abc"},
    P.Op.RACE_REMATCH: {"race_id": "abc"},
    P.Op.FRIEND_ADD: {"name": "someone"},
    P.Op.FRIEND_REMOVE: {"name": "someone"},
    P.Op.FRIENDS: {},
    P.Op.RACE_END: {"race_id": "abc"},
    P.Op.RACE_DROP: {"race_id": "abc", "player": "somebody"},
    P.Op.CHALLENGE_CREATE: {"game": "crescent"},
    P.Op.CHALLENGE_ACCEPT: {"code": "ABCDEF"},
    P.Op.CHALLENGES: {},
    P.Op.CHALLENGE_CLOSE: {"code": "ABCDEF"},
    P.Op.RACE_WATCH: {"code": "ABCDEF"},
    P.Op.RACE_UNWATCH: {"race_id": "abc"},
    P.Op.INVITE: {"name": "someone", "race": "ABCDEF"},
    P.Op.INBOX: {},
    P.Op.INBOX_READ: {},
    P.Op.BLOCK: {"name": "someone"},
    P.Op.UNBLOCK: {"name": "someone"},
    P.Op.PRESENCE: {},
    P.Op.CALENDAR: {"month": "2026-01"},
    P.Op.LINK_CODE: {},
    P.Op.TOKEN_ROTATE: {},
    P.Op.ACCOUNT_EXPORT: {},
    P.Op.ACCOUNT_DELETE: {"name": "someone"},
    P.Op.REPORT: {"name": "someone", "reason": "abuse"},
    P.Op.TOURNAMENT_CREATE: {"game": "carpet", "starts_at": 1_796_648_400_000, "minutes": 30},
    P.Op.TOURNAMENT_JOIN: {"code": "ABCDEFG"},
    P.Op.TOURNAMENT_LEAVE: {"tournament_id": "abc"},
    P.Op.TOURNAMENTS: {},
    P.Op.TOURNAMENT_PLAY: {"tournament_id": "abc"},
    P.Op.TOURNAMENT_WATCH: {"code": "ABCDEFG"},
    P.Op.TOURNAMENT_UNWATCH: {"tournament_id": "abc"},
}


def test_every_op_is_public_or_signed_in() -> None:
    assert set(SIGNED_IN) == set(P.REQUESTS) - P.PUBLIC_OPS


@pytest.mark.parametrize("op", sorted(SIGNED_IN))
async def test_a_signed_in_op_refuses_a_stranger(client: TestClient, op: P.Op) -> None:
    err = await client.error(op, **SIGNED_IN[op])
    assert err["code"] == "unauthorized"
    assert err["message"] == "register or auth first"


@pytest.mark.parametrize("op", [P.Op.RULES, P.Op.LEADERBOARD])
async def test_an_unknown_game_is_not_found_in_one_wording(client: TestClient, op: P.Op) -> None:
    err = await client.error(op, game="solitaire")
    assert err == {
        "code": "not_found",
        "message": "no patience is called 'solitaire'",
        "key": "error.no_patience",
        "params": {"name": "solitaire"},
    }


def test_the_engines_status_is_the_protocols() -> None:
    game = registry.get("crescent")
    status = game.status(game.deal(7))
    assert status is P.GameStatus.PLAYING
    plain: str = status  # what a game module returns compares equal
    assert plain == "playing"
    assert P.decode(P.encode({"status": status})) == {"status": "playing"}


def test_a_race_news_reads_back_as_it_was_built() -> None:
    race = {
        "race_id": "r1",
        "status": P.RaceStatus.RUNNING,
        "players": [{"player": "Вася"}, {"player": "anna"}],
    }
    news = RaceNews.from_bytes(RaceNews(race, {"Вася": "r1-Вася"}).to_bytes())
    assert news == RaceNews({**race, "status": "running"}, {"Вася": "r1-Вася"})
    assert news.members == ["Вася", "anna"]
    assert news.race_id == "r1"
    assert RaceNews.from_bytes(RaceNews(race).to_bytes()).games == {}


async def test_a_rules_page_comes_in_the_language_asked_else_english(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ru = await client.call(P.Op.RULES, game="crescent", lang="ru")
    assert ru["lang"] == "ru" and ru["text"].startswith("# Полумесяц")
    assert "<h1>Полумесяц — Crescent</h1>" in ru["html"] and "<blockquote>" in ru["html"]
    assert "**" not in ru["html"] and "«Вынимать нижние карты" in ru["html"]  # the seed
    assert (await client.call(P.Op.RULES, game="carpet"))["lang"] == "en"
    # a page not written in Russian yet: the rules pages of a checkout with carpet's
    # English page alone
    english = Path("docs/games/carpet.md").read_text(encoding="utf-8")
    (tmp_path / "carpet.md").write_text(english, encoding="utf-8")
    monkeypatch.setattr(catalogue, "DOCS", tmp_path)
    # and none of the pages an earlier test of this process had read (they are kept)
    monkeypatch.setattr(catalogue, "_PAGES", {})
    en = await client.call(P.Op.RULES, game="carpet", lang="ru")
    assert en["lang"] == "en" and en["text"] == english and en["html"].startswith("<h1>")
