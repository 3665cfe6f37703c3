"""An event that comes before anyone listens is kept for the next listener: a race
script sets its listener after ``race_join`` answers, and the countdown or the deal
may come first (a script then waited for a deal it had already been sent)."""

from __future__ import annotations

from client.connection import Connection
from protocol.messages import Push
from tests.support import eventually

from .conftest import fresh_name


async def test_events_before_a_listener_reach_the_first_listener(server_url: str) -> None:
    async with Connection(server_url) as creator, Connection(server_url) as friend:
        await creator.register(fresh_name())
        await friend.register(fresh_name())
        race = await creator.race_create("crescent", seed=7)
        await friend.race_join(str(race["code"]))
        # the creator hears of the join, with nobody listening
        await eventually(lambda: creator._unheard, what="the join heard")
        heard: list[Push] = []
        creator.on_event = heard.append
        assert heard and heard[-1].name == "race"
        assert len(heard[-1].fields["players"]) == 2
        assert not creator._unheard
