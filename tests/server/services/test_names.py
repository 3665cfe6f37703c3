"""Look-alike names over a real server (issue 22, item 9): a name that looks like an
existing player's is refused whatever its script, names are NFKC-normalised wherever
one is given (register and every lookup), a name needs a letter, and players
registered before the check get their look-alike keys when a server starts."""

from __future__ import annotations

import uuid

import redis.asyncio as aioredis

from server.services.names import look_alike_key, look_alike_keys, skeleton
from tests.support import TestClient, connect, running_app


def test_the_skeleton_is_ts39s() -> None:
    assert skeleton("ᎪᏴᏟ") == "ABC"  # Cherokee letters whose prototypes are Latin
    assert skeleton("АВС") == "ABC"  # Cyrillic
    assert skeleton("m") == "rn"  # a prototype may be longer than its source
    assert skeleton("0") == "O" and skeleton("1") == "l"
    for copy in ["abe", "ABE", "АВЕ", "ΑΒΕ", "ᎪᏴᎬ"]:
        assert look_alike_key(copy) == look_alike_key("ABE"), copy
    assert look_alike_key("соре") == look_alike_key("cope")  # lower-case Cyrillic
    assert look_alike_key("Вася") != look_alike_key("Ваня")
    # names are one player's in any case: "Nika" is "NIKA" too, which the Greek "ΝΙΚΑ"
    # copies ("I" looks like "l")
    assert set(look_alike_keys("Nika")) & set(look_alike_keys("ΝΙΚΑ"))
    assert not set(look_alike_keys("Nika")) & set(look_alike_keys("Nike"))


async def test_look_alike_names_are_taken(client: TestClient, client2: TestClient) -> None:
    await client.register("ABE")
    await client.register("cope")
    # Cyrillic, Greek and Cherokee copies, and the lower-case Cyrillic copy of "cope"
    for copy, of in [("АВЕ", "ABE"), ("ΑΒΕ", "ABE"), ("ᎪᏴᎬ", "ABE"), ("соре", "cope")]:
        err = await client2.error("register", name=copy)
        assert err["code"] == "name_taken", copy
        assert "looks like an existing player's name" in err["message"], copy
        assert of in err["message"]
    # fullwidth and mathematical letters are the letters themselves (NFKC): the name
    for same in ["ＡＢＥ", "𝐀𝐁𝐄", "abe"]:
        err = await client2.error("register", name=same)
        assert err["code"] == "name_taken" and "is taken" in err["message"], same
    # NFKC names: a ligature is its letters
    assert (await client2.call("register", name="ﬁsh_k"))["player"] == "fish_k"


async def test_a_name_needs_a_letter_and_stays_of_one_script(client: TestClient) -> None:
    for name in ["___", "---", "123", "1_2-3", "0000"]:
        err = await client.error("register", name=name)
        assert err["code"] == "bad_request", name
        assert "at least one of them a letter" in err["message"]
    # mixed scripts, a zero-width space, a right-to-left override: refused as before
    for name in ["Вaся", "ab\u200bc", "abc\u202edef", "\u202eabc", "a\u200db\u200dc"]:
        assert (await client.error("register", name=name))["code"] == "bad_request", name


async def test_every_lookup_takes_the_same_normal_form(
    client: TestClient, client2: TestClient
) -> None:
    """friend_add, friend_remove, stats and race_drop find a player by any case and any
    compatibility form of their name, in any script."""
    await client.register("Ωμέγα")
    await client2.register("Zed_q")
    assert (await client2.call("friend_add", name="ΩΜΈΓΑ"))["friend"] == "Ωμέγα"
    assert (await client.call("friend_add", name="ｚｅｄ_Q")) == {"friend": "Zed_q", "added": True}
    assert (await client.call("stats", player="ｚＥＤ_q"))["player"] == "Zed_q"
    assert (await client2.call("stats", player="ωμέγα"))["player"] == "Ωμέγα"
    assert (await client.call("friend_remove", name="𝐙𝐞𝐝_q"))["removed"] is True
    # a race member by another form of their name: found (here not away: forbidden)
    race = (await client.call("race_create", game="crescent"))["race"]
    await client2.call("race_join", code=race["code"])
    err = await client.error("race_drop", race_id=race["race_id"], player="ＺＥＤ_Q")
    assert err["code"] == "forbidden" and "Zed_q is here" in err["message"]


async def test_players_registered_before_get_their_keys_at_start(redis_url: str) -> None:
    """A player written before look-alike keys were kept (no key) is given one when a
    server starts, once: a copy of their name is then refused, and a name with no
    letter registered then is still found."""
    prefix = f"t{uuid.uuid4().hex[:10]}:"
    raw = aioredis.Redis.from_url(redis_url)
    try:
        for old in ["Nika", "1234"]:
            await raw.hset(f"{prefix}pl:{{{old.casefold()}}}", mapping={"name": old, "token": "x"})
        async with running_app(redis_url, key_prefix=prefix, backfill_look_alikes=True) as app:
            assert await raw.get(f"{prefix}alike:{{nika}}") == b"Nika"
            assert await raw.exists(f"{prefix}alike-backfilled")
            async with connect(f"ws://127.0.0.1:{app.port}/ws") as c:
                err = await c.error("register", name="Νικα")  # Greek
                assert err["code"] == "name_taken" and "Nika" in err["message"]
                assert (await c.call("stats", player="1234"))["player"] == "1234"
            assert app.services is not None
            assert await app.services.accounts.backfill() == 0  # done once
    finally:
        await raw.aclose()
