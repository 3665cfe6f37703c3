"""The message a race's channel carries between server instances, built and read here.

Every change of a race is published as its full ``race`` event object and, when the
race starts, each member's game id, so that each instance can pass the news on to the
members connected to it (``race`` event) and hand a starting member their game
(``race_started`` event).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol import pack, unpack


@dataclass(frozen=True, slots=True)
class RaceNews:
    #: the race as its ``race`` event shows it
    race: dict[str, Any]
    #: member → game id of the member's game, when the race has just started
    games: dict[str, str] = field(default_factory=dict)

    @property
    def race_id(self) -> str:
        return str(self.race["race_id"])

    @property
    def members(self) -> list[str]:
        return [str(p["player"]) for p in self.race["players"]]

    def to_bytes(self) -> bytes:
        message: dict[str, Any] = {"race": self.race}
        if self.games:
            message["games"] = self.games
        return pack(message)

    @classmethod
    def from_bytes(cls, data: bytes) -> RaceNews:
        message = unpack(data)
        return cls(race=message["race"], games=message.get("games") or {})
