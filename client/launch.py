"""What to open, and the round trips that open it: a game (start or resume) or a
race (make or join). Shared by the command line (script mode) and the Textual app,
so both open things the same way; it knows the connection and nothing above it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from protocol.errors import ErrorCode
from protocol.messages import Mode

from .connection import ClientError, Connection, Message, ServerError, UsageError
from .lang import _
from .records import ReplayOf
from .text import certifying_text


@dataclass(frozen=True)
class Launch:
    """What ``pasyans play``/``resume``/``race``/``replay`` asked for (None: the home
    screen)."""

    game: str = ""
    mode: Mode = Mode.PRACTICE
    seed: int | None = None
    game_id: str = ""
    resume: bool = False
    race: str = ""  # "new" (a race on game, seed) or a race code to join
    replay: ReplayOf | None = None  # a replay to step through (``pasyans replay``)
    challenge: str = ""  # a challenge's code: your game on its deal
    watch: str = ""  # a race's code: watch it (``pasyans race watch``)
    date: str = ""  # with mode daily: a past day's deal, played after its day (unranked)


def game_slug(text: str) -> str:
    """A game's slug as typed, in any case (``Crescent``, ``ST_HELENA``): slugs are
    lower case."""
    return text.strip().lower()


def check_game(game: str, catalogue: Mapping[str, Any]) -> None:
    """Refuse a game the server does not offer (its catalogue by slug), pointing
    to the list; an empty catalogue checks nothing."""
    if catalogue and game not in catalogue:
        raise UsageError(
            _("no game is called {game}: `pasyans games` lists the games' slugs", game=repr(game))
        )


async def latest_game(conn: Connection) -> str:
    """The id of the player's most recent game still in play."""
    result = await conn.my_games(limit=50)
    for game in result.get("games") or []:
        if game.get("status", "playing") == "playing" and game.get("game_id"):
            return str(game["game_id"])
    raise ClientError(_("you have no game in play: start one with `pasyans play GAME`"))


async def open_game(
    conn: Connection, launch: Launch, progress: Callable[[str], None] | None = None
) -> Message:
    """The state of the game ``launch`` names: resumed (``game_id``, else your latest
    game in play) or started on ``game``, ``mode``, ``seed``; or your game on the deal
    of the challenge ``challenge`` (made the first time). A daily the server is still
    certifying is waited for: ``progress`` is told how far it got each time."""
    if launch.challenge:
        accepted = await conn.challenge_accept(launch.challenge)
        return dict(accepted["state"])
    if launch.resume:
        return await conn.resume(launch.game_id or await latest_game(conn))
    while True:
        try:
            return await conn.start(launch.game, launch.mode, launch.seed, launch.date or None)
        except ServerError as exc:
            preparing = exc.extra.get("preparing")
            if exc.code != ErrorCode.UNAVAILABLE or not isinstance(preparing, dict):
                raise
            if progress is not None:
                progress(f"{launch.game}: {certifying_text(preparing)}")
            await asyncio.sleep(float(exc.extra.get("retry_after") or 5.0))


async def open_race(conn: Connection, launch: Launch) -> tuple[Message, Message | None]:
    """The race ``launch`` names and your game in it (None until it is dealt):
    ``race="new"`` makes one on ``game``, ``seed`` (today's daily deal with ``mode``
    daily); anything else is a code to join."""
    if launch.race == "new":
        daily = launch.mode is Mode.DAILY
        return await conn.race_create(launch.game, launch.seed, daily=daily), None
    joined = await conn.race_join(launch.race)
    state: Any = joined.get("state")
    return dict(joined["race"]), dict(state) if isinstance(state, dict) else None
