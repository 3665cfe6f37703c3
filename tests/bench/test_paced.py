"""bench/paced's load (``bench.paced.worker``) against a real server: its players sign
in, follow each other and race; a racer's move reaches every other member as a ``race``
event matched to that move (the row's event latency is of real events), and a look at
``friends`` shows the players followed."""

from __future__ import annotations

import random

from bench.paced.worker import Tally, parser, race_groups, set_up
from tests.support import eventually, running_app


async def test_the_paced_players_race_and_their_events_are_matched_to_their_moves(
    redis_url: str,
) -> None:
    async with running_app(redis_url, address_limits=False) as app:
        args = parser().parse_args(
            [
                *("--url", f"ws://127.0.0.1:{app.port}/ws", "--first", "0", "--count", "10"),
                *("--stamp", "pcd", "--pace", "1", "--friends-every", "1", "--follows", "2"),
                *("--racing", "0.8", "--race-size", "4", "--warm", "0", "--seconds", "1"),
            ]
        )
        tally = Tally()
        players = await set_up(args, tally, random.Random(1))
        try:
            groups = race_groups(players, args)
            assert [len(g) for g in groups] == [4, 4]  # 80 % of 10, in whole races
            racers = [p for g in groups for p in g]
            assert all(p.race_id and p.state["mode"] == "race" for p in racers)
            assert not any(p.race_id for p in players[8:])
            tally.measuring = True
            for p in racers:
                seq = int(p.state["seq"])
                await p.move()
                assert int(p.state["seq"]) == seq + 1  # a legal move, played
            # each move seen by the three other members of its race, matched to it
            await eventually(
                lambda: len(tally.events) == len(racers) * 3 or None,
                what=lambda: f"{len(tally.events)} of {len(racers) * 3} race events matched",
            )
            assert len(tally.moves) == len(racers)
            await players[9].look_at_friends()
            assert len(tally.friends) == 1 and tally.sent > 0 and tally.received > 0
            assert not tally.errors
        finally:
            for p in players:
                await p.ws.close()
