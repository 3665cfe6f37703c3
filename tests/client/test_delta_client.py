"""The client keeps its board by delta replies (docs/protocol.md, "Delta replies"):
:func:`protocol.delta.apply_delta` on its own, then ``Connection.play`` and
``take_back`` against a real server, falling back to ``resume`` after a refusal or a
gap in ``seq``. (tests/server/services/test_delta.py plays every patience with the same
function.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from client import config
from client.connection import Connection, Message, ServerError
from protocol.delta import DeltaGap, apply_delta
from protocol.errors import ErrorCode
from protocol.messages import Event, Mode, Op, Push
from tests.support import GUARD

# -- the function ---------------------------------------------------------------------


def held() -> dict[str, Any]:
    """A state as ``start`` gives it (trimmed to what a delta touches)."""
    return {
        "game_id": "g1",
        "game": "travellers_aces",
        "seq": 4,
        "status": "playing",
        "moves": 4,
        "time_ms": 1000,
        "foundation": 3,
        "clean": True,
        "legal": [{"from": "T1", "to": "F1"}],
        "view": {
            "piles": [
                {"id": "T1", "kind": "tableau", "label": "T1", "cards": ["AH", "2S"]},
                {"id": "F1", "kind": "foundation", "label": "F1", "cards": []},
                {"id": "S", "kind": "stock", "label": "stock", "cards": [None, None]},
            ],
            "info": {"redeals_left": 1, "drawn": "KS", "pending": "T1"},
        },
    }


def delta(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game_id": "g1",
        "seq": 5,
        "status": "playing",
        "moves": 5,
        "time_ms": 1500,
        "foundation": 4,
        "clean": False,
        "legal": [],
        "piles": {},
        "info": {},
    }
    return {**base, **changes}


def pile(state: dict[str, Any], pid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in state["view"]["piles"] if p["id"] == pid)
    return found


def test_a_delta_replaces_the_counters_legal_and_the_cards_it_names() -> None:
    before = held()
    after = apply_delta(before, delta(piles={"T1": ["AH"]}, legal=[{"action": "deal"}]))
    assert (after["seq"], after["moves"], after["time_ms"]) == (5, 5, 1500)
    assert (after["foundation"], after["clean"]) == (4, False)
    assert after["legal"] == [{"action": "deal"}]
    assert pile(after, "T1") == {"id": "T1", "kind": "tableau", "label": "T1", "cards": ["AH"]}
    assert pile(after, "F1") == pile(before, "F1") and pile(after, "S") == pile(before, "S")
    assert [p["id"] for p in after["view"]["piles"]] == ["T1", "F1", "S"]
    assert after["game"] == "travellers_aces"  # what a delta never carries stays
    assert before == held()  # the state given is left as it was


def test_info_keys_change_and_a_null_removes_one() -> None:
    after = apply_delta(held(), delta(info={"redeals_left": 0, "drawn": None, "new": [1]}))
    assert after["view"]["info"] == {"redeals_left": 0, "pending": "T1", "new": [1]}


def test_pile_meta_replaces_the_whole_pile() -> None:
    up = {"id": "F1", "kind": "foundation", "label": "F1 ↓", "dir": "down", "cards": ["KH"]}
    after = apply_delta(held(), delta(pile_meta={"F1": up}, piles={"T1": ["AH"]}))
    assert pile(after, "F1") == up
    assert pile(after, "T1")["cards"] == ["AH"]


@pytest.mark.parametrize(
    "bad",
    [
        delta(seq=6),  # a move between was never seen
        delta(seq=4),
        delta(game_id="g2"),
        delta(piles={"T9": []}),
        delta(pile_meta={"T9": {"id": "T9", "cards": []}}),
    ],
)
def test_a_delta_that_does_not_follow_the_state_is_a_gap(bad: dict[str, Any]) -> None:
    with pytest.raises(DeltaGap):
        apply_delta(held(), bad)


# -- the connection against a real server ------------------------------------------------


class Recording(Connection):
    """A client connection that notes each operation it sends (``skew`` adds to the
    ``seq`` of the next delta received: a gap, which a real server never makes) and
    each event it gets."""

    def __init__(self, url: str) -> None:
        super().__init__(url, on_event=self.pushed)
        self.events: asyncio.Queue[Push] = asyncio.Queue()
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.skew = 0

    def pushed(self, push: Push) -> None:
        self.events.put_nowait(push)

    async def call(self, op: Op, **params: Any) -> Message:
        self.sent.append((str(op), params))
        result = await super().call(op, **params)
        if self.skew and "delta" in result:
            result["delta"]["seq"] += self.skew
            self.skew = 0
        return result


def comparable(state: Message) -> Message:
    keys = ("game_id", "seq", "status", "moves", "foundation", "clean", "legal", "view")
    return {k: state[k] for k in keys}


async def signed_in(url: str, account: config.Credentials) -> Recording:
    conn = Recording(url)
    await conn.open()
    await conn.auth(account.token)
    conn.sent.clear()
    return conn


async def test_play_and_take_back_keep_the_board_by_deltas(
    server_url: str, account: config.Credentials
) -> None:
    conn = await signed_in(server_url, account)
    try:
        state = await conn.start("travellers_aces", Mode.DEAL, seed=7)
        for step in range(12):
            if step % 5 == 4:
                state = await conn.take_back(state)
            else:
                state = await conn.play(state, state["legal"][step % len(state["legal"])])
            assert comparable(state) == comparable(await conn.resume(state["game_id"]))
        sent = [(op, p.get("reply")) for op, p in conn.sent if op != "resume"]
        assert sent[0] == ("start", None)
        assert sent[1:] == [("undo" if i % 5 == 4 else "move", "delta") for i in range(12)]
    finally:
        await conn.close()


async def test_a_gap_in_seq_is_filled_by_resume(
    server_url: str, account: config.Credentials
) -> None:
    conn = await signed_in(server_url, account)
    try:
        state = await conn.start("crescent", Mode.DEAL, seed=0)
        conn.skew = 1
        state = await conn.play(state, state["legal"][0])
        assert [op for op, _ in conn.sent][-2:] == ["move", "resume"]
        assert state["seq"] == 1 and state["moves"] == 1
        assert comparable(state) == comparable(await conn.resume(state["game_id"]))
    finally:
        await conn.close()


async def test_a_refused_move_brings_the_game_as_the_server_has_it(
    server_url: str, account: config.Credentials
) -> None:
    conn = await signed_in(server_url, account)
    try:
        state = await conn.start("crescent", Mode.DEAL, seed=0)
        with pytest.raises(ServerError) as refused:
            await conn.play(state, {"from": "FA-H", "to": "T1"})
        assert refused.value.code == ErrorCode.ILLEGAL_MOVE
        assert refused.value.state is not None
        assert comparable(refused.value.state) == comparable(state)

        # moved on elsewhere: the stale_seq error carries the state, no resume needed
        elsewhere = await conn.play(state, state["legal"][0])
        conn.sent.clear()
        with pytest.raises(ServerError) as stale:
            await conn.take_back(state)
        assert stale.value.code == ErrorCode.STALE_SEQ
        assert stale.value.state is not None and stale.value.state["seq"] == elsewhere["seq"]
        assert [op for op, _ in conn.sent] == ["undo"]

        # ended elsewhere: the board learns the end
        await conn.resign(state["game_id"])
        with pytest.raises(ServerError) as over:
            await conn.play(elsewhere, elsewhere["legal"][0])
        assert over.value.state is not None and over.value.state["status"] == "lost"
    finally:
        await conn.close()


async def test_the_move_that_ends_a_race_game_shows_its_deal(
    server_url: str, account: config.Credentials
) -> None:
    """A race's deal is hidden while it is played and shown once the game is over: a
    delta does not carry it, so the end is fetched whole."""
    conn = await signed_in(server_url, account)
    try:
        race = await conn.race_create("fifteen", seed=0)
        await conn.race_start(race["race_id"])
        async with asyncio.timeout(GUARD):
            while (push := await conn.events.get()).name != Event.RACE_STARTED:
                pass
        state = push.fields["state"]
        assert state["deal"]["seed"] is None
        for _ in range(20):  # fifteen's deal 0 has no move left after 8 first moves
            if state["status"] != "playing":
                break
            state = await conn.play(state, state["legal"][0])
        assert state["status"] == "lost" and state["deal"]["seed"] == 0
        assert state == await conn.resume(state["game_id"]) | {"time_ms": state["time_ms"]}
    finally:
        await conn.close()
