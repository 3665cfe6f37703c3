"""Strict request parsing and the reply/event builders."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import protocol as P
from protocol import ErrorCode, Op, ProtocolError, parse_request


def refused(msg: dict[str, Any]) -> ErrorCode:
    with pytest.raises(ProtocolError) as err:
        parse_request(msg)
    assert err.value.message
    return err.value.code


def test_versions_and_names() -> None:
    assert P.VERSION == 1
    assert P.SUBPROTOCOL == "pasyans.v1"
    assert P.MAX_FRAME == 64 * 1024
    assert len(ErrorCode) == 13
    assert {str(c) for c in ErrorCode} == {
        "bad_request",
        "unknown_op",
        "unauthorized",
        "not_found",
        "name_taken",
        "illegal_move",
        "stale_seq",
        "game_over",
        "rate_limited",
        "too_large",
        "forbidden",
        "unavailable",
        "internal",
    }
    assert P.CLOSE_GOING_AWAY == 1001 and P.CLOSE_POLICY == 1008
    assert set(P.REQUESTS) == set(Op)


def test_typed_requests() -> None:
    move = parse_request(
        P.request(3, Op.MOVE, game_id="g1", seq=2, move={"from": "T1", "to": "T2"})
    )
    assert move == P.MoveRequest(id=3, game_id="g1", seq=2, move={"from": "T1", "to": "T2"})
    start = parse_request(
        {"id": 0, "op": "start", "game": "crescent", "mode": "deal", "seed": 2**64 - 1}
    )
    assert (
        isinstance(start, P.StartRequest) and start.seed == 2**64 - 1 and start.mode is P.Mode.DEAL
    )
    board = parse_request({"id": 1, "op": "leaderboard", "game": "crescent"})
    assert board == P.LeaderboardRequest(id=1, game="crescent")
    assert board.limit == 20 and board.board is P.Board.DAILY and not board.around_me
    assert parse_request({"id": 1, "op": "my_games", "cursor": None}) == P.MyGamesRequest(id=1)
    assert parse_request({"id": 1, "op": "daily", "date": "2026-02-28"}) == P.DailyRequest(
        1, "2026-02-28"
    )


@pytest.mark.parametrize(
    "msg",
    [
        {"op": "games"},
        {"id": -1, "op": "games"},
        {"id": True, "op": "games"},
        {"id": "1", "op": "games"},
        {"id": 2**63, "op": "games"},
        {"id": 1},
        {"id": 1, "op": 5},
        {"id": 1, "op": "games", "extra": 1},
        {"id": 1, "op": "register"},
        {"id": 1, "op": "register", "name": "no spaces"},
        {"id": 1, "op": "register", "name": "ab"},
        {"id": 1, "op": "register", "name": "a" * 21},
        {"id": 1, "op": "start", "game": "crescent", "mode": "deal"},
        {"id": 1, "op": "start", "game": "crescent", "mode": "practice", "seed": 5},
        {"id": 1, "op": "start", "game": "crescent", "mode": "deal", "seed": 2**64},
        {"id": 1, "op": "start", "game": "crescent", "mode": "deal", "seed": -1},
        {"id": 1, "op": "start", "game": "crescent", "mode": "speedrun"},
        {"id": 1, "op": "move", "game_id": "g", "seq": -1, "move": {"action": "x"}},
        {"id": 1, "op": "move", "game_id": "g", "seq": 1.0, "move": {"action": "x"}},
        {"id": 1, "op": "move", "game_id": "g", "seq": 1, "move": []},
        {"id": 1, "op": "move", "game_id": "g", "seq": 1, "move": {}},
        {"id": 1, "op": "move", "game_id": "g", "seq": 1, "move": {"from": ["T1"]}},
        {"id": 1, "op": "move", "game_id": "g", "seq": 1, "move": {str(i): i for i in range(9)}},
        {"id": 1, "op": "move", "game_id": "", "seq": 1, "move": {"action": "x"}},
        {"id": 1, "op": "move", "game_id": "g" * 65, "seq": 1, "move": {"action": "x"}},
        {"id": 1, "op": "my_games", "limit": 0},
        {"id": 1, "op": "my_games", "limit": 101},
        {"id": 1, "op": "leaderboard", "game": "crescent", "board": "weekly"},
        {"id": 1, "op": "leaderboard", "game": "crescent", "around_me": 1},
        {"id": 1, "op": "daily", "date": "2026-02-30"},
        {"id": 1, "op": "daily", "date": "26-1-1"},
        {"id": 1, "op": "auth", "token": ""},
    ],
)
def test_bad_requests(msg: dict[str, Any]) -> None:
    assert refused(msg) is ErrorCode.BAD_REQUEST


def test_unknown_op() -> None:
    assert refused({"id": 1, "op": "teleport"}) is ErrorCode.UNKNOWN_OP


def test_builders_and_reply_parser() -> None:
    assert P.ok(4, player="x") == {"re": 4, "ok": True, "player": "x"}
    err = P.error(5, ErrorCode.STALE_SEQ, "seq is 3", state={"seq": 3})
    assert err == {
        "re": 5,
        "ok": False,
        "error": {
            "code": "stale_seq",
            "message": "seq is 3",
            "key": "error.stale_seq",  # what a client says: the code's own key
            "params": {},
            "state": {"seq": 3},
        },
    }
    reply = P.parse_reply(err)
    assert isinstance(reply, P.Reply) and not reply.ok
    with pytest.raises(ProtocolError) as exc:
        reply.unwrap()
    assert exc.value.code is ErrorCode.STALE_SEQ and exc.value.extra == {"state": {"seq": 3}}
    assert exc.value.key == "error.stale_seq" and exc.value.params == {}
    precise = ProtocolError(
        ErrorCode.RATE_LIMITED, "slow", key="error.limit_register", params={"seconds": 1969}
    )
    wire = P.error(6, precise.code, precise.message, **precise.wire())["error"]
    assert wire["key"] == "error.limit_register" and wire["params"] == {"seconds": 1969}
    assert P.parse_reply(P.ok(4, player="x")) == P.Reply(4, True, {"player": "x"})
    push = P.parse_reply(P.event(P.Event.BYE, reason="later"))
    assert push == P.Push("bye", {"reason": "later"})
    assert P.request(1, Op.DAILY, date=None) == {"id": 1, "op": "daily"}


def test_cards() -> None:
    from protocol import cards

    assert cards.pretty("TD") == "10♦"
    assert cards.pretty(None) == "??"
    assert cards.parse("QS") == cards.WireCard(12, 0)
    assert cards.parse("AH").red and cards.parse("AH").name == "ace of hearts"
    with pytest.raises(ValueError):
        cards.parse("1S")


@given(
    st.dictionaries(
        st.sampled_from(["id", "op", "game", "seq", "move", "name", "x"]),
        st.one_of(st.none(), st.integers(), st.text(max_size=5), st.booleans()),
    )
)
def test_parse_request_refuses_only_with_protocol_errors(msg: dict[str, Any]) -> None:
    try:
        parse_request(msg)
    except ProtocolError as exc:
        assert exc.code in (ErrorCode.BAD_REQUEST, ErrorCode.UNKNOWN_OP)


@pytest.mark.parametrize("game", ["../etc", "no-such-game", "Ёлка"])
def test_a_string_that_is_no_slug_names_no_game(game: str) -> None:
    """``not_found``, as the server answers a slug of no game: one answer for both."""
    with pytest.raises(ProtocolError) as caught:
        P.parse_request({"id": 1, "op": "rules", "game": game})
    assert caught.value.code is ErrorCode.NOT_FOUND


def test_a_slug_is_read_in_any_case() -> None:
    req = P.parse_request({"id": 1, "op": "rules", "game": "Crescent"})
    assert isinstance(req, P.RulesRequest) and req.game == "crescent"


def test_every_op_has_one_request_type_whose_annotations_are_its_schema() -> None:
    """Each request names its fields once: the op table and the checks derive from the
    dataclass; ``start`` refuses the ``race`` mode (races deal their own games)."""
    import dataclasses

    assert set(P.REQUESTS) == set(Op)
    for op, cls in P.REQUESTS.items():
        assert cls.op is op
        assert set(cls.fields) == {f.name for f in dataclasses.fields(cls)} - {"id"}
    with pytest.raises(ProtocolError) as caught:
        parse_request({"id": 1, "op": "start", "game": "crescent", "mode": "race"})
    assert caught.value.code is ErrorCode.BAD_REQUEST and "race" in caught.value.message


#: a valid value of each request field (by name), for building requests of every op
VALID: dict[str, Any] = {
    "name": "anna_k",
    "token": "tok-1",
    "game": "crescent",
    "mode": "practice",
    "lang": "ru",
    "seed": None,
    "game_id": "g1",
    "seq": 3,
    "move": {"from": "T1", "to": "T2"},
    "reply": "delta",
    "limit": 5,
    "cursor": "c1",
    "date": "2026-03-01",
    "board": "alltime",
    "around_me": True,
    "friends": False,
    "assist": True,
    "check": False,
    "code": "AB12CD34",  # a race, a challenge and a link code alike
    "daily": False,
    "player": "anna_k",
    "race_id": "r1",
    "step": 2,
    "race": "AB12CD",
    "challenge": "ABCD2345",
    "item": "i1",
    "hidden": True,
    "month": "2026-03",
    "reason": "cheating",
    "text": "too fast",
    "starts_at": 1_796_648_400_000,
    "minutes": 30,
    "tournament_id": "t1",
    "tournament": "AB12CD3",
}


@given(st.sampled_from(sorted(P.REQUESTS, key=str)), st.data())
def test_a_parsed_request_is_the_one_its_constructor_builds(op: Op, data: st.DataObject) -> None:
    """``parse_request`` fills a request through its slots (faster than its frozen
    ``__init__``): the result must be the very request the constructor builds from the
    same checked fields, defaults and ``__post_init__`` checks included, and frozen."""
    import dataclasses

    cls = P.REQUESTS[op]
    fields = [f for f in dataclasses.fields(cls) if f.name != "id"]
    msg: dict[str, Any] = {"id": 7, "op": str(op)}
    for f in fields:
        required = f.default is dataclasses.MISSING
        assert f.name in VALID, f"VALID lacks a value of {op}'s field {f.name!r}"
        if required or data.draw(st.booleans()):
            msg[f.name] = VALID[f.name]
        elif data.draw(st.booleans()):
            msg[f.name] = None  # null: the default
    try:
        parsed = parse_request(msg)
    except ProtocolError as exc:
        with pytest.raises(ProtocolError) as again:
            params = {
                f.name: cls.fields[f.name](f.name, msg[f.name])
                for f in fields
                if msg.get(f.name) is not None
            }
            cls(id=7, **params)
        assert again.value.code is exc.code
        return
    params = {
        f.name: cls.fields[f.name](f.name, msg[f.name])
        for f in fields
        if msg.get(f.name) is not None
    }
    assert parsed == cls(id=7, **params)
    assert type(parsed) is cls
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.id = 8  # type: ignore[misc]
