"""Accounts that last (issue 49, the players' half) over a real server on a real Redis:
a device linked by a one-use code, signing out everywhere, the export of one's own
data, leaving; and the attacks on each (codes guessed, replayed, expired; two rotations
racing; another's account deleted or exported)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from protocol import CLOSE_SIGNED_OUT
from protocol.checks import LINK_ALPHABET
from server.net import App
from server.services import account_data
from server.store import Store
from tests.support import TestClient, connect, eventually, running_app
from tests.support.fixtures import unique_name

LIMITED: dict[str, Any] = {
    "address_limits": True,
    "address_links": 6,
    "address_failed_links": 3,
    "address_window": 3600.0,
    "trusted_proxies": "127.0.0.1",
}


def store_of(app: App) -> Store:
    assert app.store is not None
    return app.store


def forwarded(address: str) -> dict[str, Any]:
    return {"additional_headers": {"X-Forwarded-For": address}}


async def test_a_code_links_a_new_device_once(app: App, ws_url: str, client: TestClient) -> None:
    name = unique_name()
    await client.register(name)
    got = await client.call("link_code")
    code = got["code"]
    assert len(code) == 8 and set(code) <= set(LINK_ALPHABET)
    assert got["expires_in"] == 300
    # it lives in Redis with its time, no longer
    ttl = await store_of(app).redis.pttl(store_of(app).keys.link_code(code))
    assert 0 < ttl <= 300_000
    async with connect(ws_url) as phone:
        linked = await phone.call("link", code=code.lower())  # case does not matter
        assert linked["player"] == name and linked["token"]
        await phone.call("my_games")  # signed in
    async with connect(ws_url) as again:
        err = await again.error("link", code=code)  # replayed: refused
        assert err["code"] == "not_found" and err["key"] == "error.link_code_wrong"
        # the phone's own token signs in later, as the laptop's still does
        assert (await again.call("auth", token=linked["token"]))["player"] == name
    async with connect(ws_url) as laptop:
        await laptop.call("auth", token=client.token)


async def test_a_new_code_replaces_the_old_and_an_expired_one_is_refused(
    app: App, ws_url: str, client: TestClient
) -> None:
    await client.register(unique_name())
    first = (await client.call("link_code"))["code"]
    second = (await client.call("link_code"))["code"]
    async with connect(ws_url) as phone:
        assert (await phone.error("link", code=first))["key"] == "error.link_code_wrong"
        # the code's time is over: its key is gone from Redis (what its TTL does)
        await store_of(app).redis.delete(store_of(app).keys.link_code(second))
        assert (await phone.error("link", code=second))["key"] == "error.link_code_wrong"
        assert (await phone.error("my_games"))["code"] == "unauthorized"


async def test_link_needs_a_player_and_a_code_of_its_form(client: TestClient) -> None:
    assert (await client.error("link_code"))["code"] == "unauthorized"
    for bad in ["", "ABC", "ABCDEFGHJ", "ABCD-EFG", 12345678, None]:
        assert (await client.error("link", code=bad))["code"] == "bad_request", bad


async def test_guessing_codes_runs_out_for_the_address(redis_url: str) -> None:
    """A brute force of the 23⁸ codes: the third wrong code from one address spends
    its failed links; the next is refused without being tried, even the right code;
    another address is not."""
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    async with running_app(redis_url, key_prefix=prefix, **LIMITED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url, **forwarded("198.51.100.20")) as owner:
            await owner.register(unique_name())
            code = (await owner.call("link_code"))["code"]
        async with connect(url, **forwarded("203.0.113.66")) as thief:
            for guess in ["AAAAAAAA", "CCCCCCCC", "DDDDDDDD"]:
                assert (await thief.error("link", code=guess))["key"] == "error.link_code_wrong"
            err = await thief.error("link", code=code)
            assert err["code"] == "rate_limited" and err["key"] == "error.limit_link_failed"
            # malformed attempts count too: the address's links run out
            for _ in range(4):
                await thief.error("link", code="x")
            err = await thief.error("link", code="EEEEEEEE")
            assert err["code"] == "rate_limited"
        async with connect(url, **forwarded("198.51.100.21")) as phone:
            assert (await phone.call("link", code=code))["player"] == owner.player


async def test_token_rotate_signs_out_everywhere(ws_url: str, client: TestClient) -> None:
    name = unique_name()
    token = await client.register(name)
    async with connect(ws_url) as other, connect(ws_url) as phone:
        await other.call("auth", token=token)
        code = (await client.call("link_code"))["code"]
        phone_token = (await phone.call("link", code=code))["token"]
        new = (await client.call("token_rotate"))["token"]
        assert new != token
        for c in (other, phone):
            bye = await c.next_event("bye")
            assert bye["key"] == "bye.signed_out"
        await client.call("my_games")  # this connection stays, with its new token
    async with connect(ws_url) as later:
        for old in (token, phone_token):
            assert (await later.error("auth", token=old))["code"] == "unauthorized"
        assert (await later.call("auth", token=new))["player"] == name


async def test_two_rotations_at_once_leave_one_token(ws_url: str, client: TestClient) -> None:
    """Two connections of one account rotate at once: one wins; the other is refused
    (its token was replaced) and closed; only the winner's token signs in."""
    name = unique_name()
    token = await client.register(name)
    async with connect(ws_url) as other:
        await other.call("auth", token=token)
        got = await asyncio.gather(
            client.request("token_rotate"), other.request("token_rotate"), return_exceptions=True
        )
        won = [r for r in got if isinstance(r, dict) and r.get("ok")]
        assert len(won) == 1
        # the other was refused (its token was replaced first), or closed before its
        # reply by the winner's sign-out
        (lost,) = [r for r in got if r is not won[0]]
        if isinstance(lost, dict):
            assert lost["error"]["key"] == "error.token_replaced"
        else:
            assert isinstance(lost, ConnectionClosed) and lost.rcvd is not None
            assert lost.rcvd.code == CLOSE_SIGNED_OUT
        async with connect(ws_url) as later:
            assert (await later.error("auth", token=token))["code"] == "unauthorized"
            assert (await later.call("auth", token=won[0]["token"]))["player"] == name


async def test_rotation_closes_connections_on_another_instance(redis_url: str) -> None:
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    async with (
        running_app(redis_url, key_prefix=prefix) as one,
        running_app(redis_url, key_prefix=prefix) as two,
    ):
        urls = [f"ws://127.0.0.1:{app.port}/ws" for app in (one, two)]
        async with connect(urls[0]) as laptop, connect(urls[1]) as phone:
            name = unique_name()
            token = await laptop.register(name)
            await phone.call("auth", token=token)
            channel = store_of(two).keys.player_channel(name)

            async def followed() -> bool:
                # the second instance listens on the player's channel (two subscribers)
                counts = await store_of(two).redis.pubsub_numsub(channel)
                return bool(counts) and int(counts[0][1]) >= 2

            await eventually(followed, what="both instances following the player")
            await laptop.call("token_rotate")
            assert (await phone.next_event("bye"))["key"] == "bye.signed_out"


async def test_export_holds_my_data_and_nobody_else_s(
    ws_url: str, client: TestClient, client2: TestClient
) -> None:
    me, friend = unique_name(), unique_name()
    await client.register(me)
    await client2.register(friend)
    await client.call("friend_add", name=friend)
    await client2.call("friend_add", name=me)
    await client.call("block", name=friend)
    state = await client.start("crescent")
    other = await client2.start("crescent")
    got = (await client.call("account_export"))["account"]
    assert got["player"] == me
    assert got["follows"] == [friend]
    assert "followers" not in got  # no op tells who follows you (nor so a block)
    assert got["blocks"] == [friend]
    ids = [g["game_id"] for g in got["games"]]
    assert ids == [state["game_id"]] and other["game_id"] not in ids
    text = repr(got)
    assert client.token and client.token not in text and "token" not in got["profile"]
    assert "127.0.0" not in text
    # a game in play: its moves, never a position (its face-down cards)
    assert "state" not in got["games"][0] and "piles" not in repr(got["games"][0])


async def test_export_is_limited_per_account(client: TestClient) -> None:
    await client.register(unique_name())
    for _ in range(account_data.EXPORT_PAGES_PER_HOUR):
        await client.call("account_export")
    err = await client.error("account_export")
    assert err["code"] == "rate_limited" and err["key"] == "error.limit_export"
    assert err["params"]["n"] == account_data.EXPORT_PAGES_PER_HOUR


async def test_an_export_comes_in_pages(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many games come in pages (``cursor``), so that no reply outgrows what a client
    takes: here a page of one game each; the pages together are every game, once."""
    monkeypatch.setattr(account_data, "PAGE_BYTES", 1)
    await client.register(unique_name())
    made = [(await client.start("crescent"))["game_id"] for _ in range(3)]
    first = await client.call("account_export")
    assert len(first["account"]["games"]) == 1 and "follows" in first["account"]
    seen = [g["game_id"] for g in first["account"]["games"]]
    cursor = first["cursor"]
    while cursor:
        page = await client.call("account_export", cursor=cursor)
        assert set(page["account"]) == {"player", "games"}
        seen += [g["game_id"] for g in page["account"]["games"]]
        cursor = page["cursor"]
    assert sorted(seen) == sorted(made) and len(set(seen)) == 3  # each once
    err = await client.error("account_export", cursor="x1")
    assert err["key"] == "error.bad_cursor"


async def test_leaving(app: App, ws_url: str, client: TestClient, client2: TestClient) -> None:
    me, friend = unique_name(), unique_name()
    token = await client.register(me)
    await client2.register(friend)
    await client.call("friend_add", name=friend)
    await client2.call("friend_add", name=me)
    async with connect(ws_url) as tab:
        await tab.call("auth", token=token)
        # the name typed wrong: refused, nothing done
        err = await client.error("account_delete", name=friend)
        assert err["code"] == "bad_request" and err["key"] == "error.delete_name_wrong"
        # nobody deletes another's account: the op names only the caller's own
        assert (await client2.error("account_delete", name=me))["key"] == "error.delete_name_wrong"
        got = await client.call("account_delete", name=me.upper())
        assert got == {"held_days": 30}
        assert (await tab.next_event("bye"))["key"] == "bye.signed_out"
    assert (await client.error("my_games"))["code"] == "unauthorized"
    async with connect(ws_url) as later:
        assert (await later.error("auth", token=token))["code"] == "unauthorized"
        err = await later.error("register", name=me)
        assert err["code"] == "name_taken" and err["key"] == "error.name_held"
    friends = await client2.call("friends")
    assert me not in repr(friends)
    keys = await store_of(app).redis.keys(f"{store_of(app).keys.player(me)}*")
    assert keys == []


async def test_a_deleted_account_leaves_the_boards(client: TestClient, client2: TestClient) -> None:
    me = unique_name()
    await client.register(me)
    await client2.register(unique_name())
    state = await client.start("crescent", mode="daily")
    await client.call("resign", game_id=state["game_id"])
    board = await client2.call("leaderboard", game="crescent", board="daily")
    assert me in repr(board)
    await client.call("account_delete", name=me)
    board = await client2.call("leaderboard", game="crescent", board="daily")
    assert me not in repr(board)
    board = await client2.call("leaderboard", game="crescent", board="alltime")
    assert me not in repr(board)


async def test_a_racer_who_left_reads_as_one_in_the_race(
    player: TestClient, player2: TestClient
) -> None:
    """A member who deletes their account stays in the race for the others, their
    name blanked: the race's row says ``left`` (clients: "a player who left"), and a
    replay of their game names nobody."""
    race = (await player.call("race_create", game="crescent", seed=11))["race"]
    await player2.call("race_join", code=race["code"])
    await player.call("race_start", race_id=race["race_id"])
    mine = (await player.next_event("race_started"))["state"]
    theirs = (await player2.next_event("race_started"))["state"]
    await player2.call("resign", game_id=theirs["game_id"])
    await player.call("resign", game_id=mine["game_id"])
    await player.next_event("race", status="finished")
    assert player2.player
    await player2.call("account_delete", name=player2.player)
    again = (await player.call("race_join", code=race["code"]))["race"]
    rows = {p["player"]: p for p in again["players"]}
    assert rows[""].get("left") is True and player2.player not in repr(again)
    assert "left" not in rows[player.player]
    replay = (await player.call("replay", game_id=theirs["game_id"]))["replay"]
    assert replay["player"] == ""


async def test_a_sign_out_missed_before_following_is_caught(app: App, ws_url: str) -> None:
    """An instance that begins following a player's channel checks the tokens of the
    player's connections there: a sign-out published before it listened (a rotation
    racing a connection's arrival) still closes a connection whose token is gone."""
    from server.services.accounts import digest
    from server.services.news import SignedOut

    async with connect(ws_url) as stale, connect(ws_url) as fresh:
        name = unique_name()
        token = await stale.register(name)
        # the token replaced in Redis with no word on the channel (the word was missed)
        new = "n" * 43
        assert await store_of(app).rotate_token(name, digest(token), digest(new))
        await fresh.call("auth", token=new)
        assert app.services is not None and app.services.news.local is not None
        await app.services.news.local(SignedOut(name.casefold(), check=True))
        assert (await stale.next_event("bye"))["key"] == "bye.signed_out"
        await fresh.call("my_games")  # its token is the player's: kept


async def test_a_code_made_before_a_ban_signs_nobody_in(
    app: App, ws_url: str, client: TestClient
) -> None:
    name = unique_name()
    await client.register(name)
    code = (await client.call("link_code"))["code"]
    assert app.services is not None
    await app.services.moderation.ban(name, "cheating", "operator")
    async with connect(ws_url) as phone:
        err = await phone.error("link", code=code)
        assert err["code"] == "unauthorized" and err["key"] == "error.banned"


async def test_a_renamed_player_s_linked_device_follows_the_new_name(
    app: App, ws_url: str, client: TestClient
) -> None:
    name, new = unique_name(), unique_name()
    await client.register(name)
    code = (await client.call("link_code"))["code"]
    async with connect(ws_url) as phone:
        device = (await phone.call("link", code=code))["token"]
    assert app.services is not None
    await app.services.moderation.rename(name, new, "operator")
    async with connect(ws_url) as phone:
        assert (await phone.call("auth", token=device))["player"] == new
