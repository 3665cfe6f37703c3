"""What each event carries beside its ``ev``, as types (docs/protocol.md, "Events").

The contract, not the server's code: the server builds plain dicts (``race`` is the
race object the races service publishes); ``EVENTS`` is what the AsyncAPI document
(``protocol.schema``) and the suite's frame checks read.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from .objects import (
    ChallengeCode,
    Count,
    Id,
    InboxItem,
    MemberBoard,
    Player,
    Race,
    Result,
    Slug,
    State,
    Tournament,
)
from .ops import Event
from .status import GameStatus


class RaceStarted(TypedDict):
    """To each member when the race is dealt: their game on its deal."""

    race_id: Id
    state: State


class ChallengeResult(TypedDict):
    """To a challenge's creator when someone finishes it."""

    code: ChallengeCode
    game: Slug
    player: Player
    result: Annotated[Result, "as in the challenge's `results`, with its rank now"]
    results: Annotated[Count, "how many results there are"]
    unread: Annotated[Count, "the others' results you have not seen"]


class GameChanged(TypedDict):
    """To a player's other connections (any instance) when one of their games changed:
    a client showing it at a lower ``seq`` asks ``resume``."""

    game_id: Id
    seq: Annotated[Count, "the game's seq after the change"]
    status: Annotated[GameStatus, "playing, won or lost"]


class Invited(TypedDict):
    """To every connection of a player (any instance) a friend sent a race or a
    challenge: the new inbox item."""

    item: InboxItem
    unread: Annotated[Count, "items of the inbox not read yet"]


class Bye(TypedDict):
    """Before the server closes the connection on purpose."""

    reason: Annotated[str, "why, in English"]
    key: NotRequired[
        Annotated[
            str, "why, as a key of the catalogues (bye.shutdown, bye.bad_frames, bye.signed_out)"
        ]
    ]
    params: NotRequired[
        Annotated[dict[str, Any], "the key's parameters ({n}: bad frames in a row)"]
    ]


#: what each event carries beside ``ev``: ``race`` is the race object on any change of
#: it (to members and spectators), ``race_board`` a member's board to spectators once
#: the race is finished
EVENTS: dict[Event, type] = {
    Event.RACE: Race,
    Event.RACE_STARTED: RaceStarted,
    Event.RACE_BOARD: MemberBoard,
    Event.CHALLENGE_RESULT: ChallengeResult,
    Event.GAME: GameChanged,
    Event.INVITED: Invited,
    Event.TOURNAMENT: Tournament,
    Event.BYE: Bye,
}
assert set(EVENTS) == set(Event), "every event has its type"
