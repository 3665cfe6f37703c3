"""A finished game packed small (issue 50, "Memory of a year"): pure, no I/O.

A game in play is a Redis hash (its fields and its ``state`` bytes) and a list, its
log (one msgpack entry per move, undo and resignation). Once the game is over none of
that changes again but a few small flags (``recorded``, ``race_over``, …), and it is
read seldom (a replay, a look at the last board, an export). So a finished game is
kept as:

- its hash, **without** ``state``, rewritten so that every value in it is short:
  Redis then keeps it as one compact listpack (ziplist) instead of a hash table of
  separate entries (a value over ``hash-max-ziplist-value``, 64 bytes, as the state
  always is, makes the whole hash a table, several times larger);
- one string beside it (``Keys.game_packed``): the final state and the log, packed by
  :func:`pack_game` — the log's distinct entries once (a game's moves come from its
  fixed piles and actions, so there are few), then one or two bytes an entry, the
  whole deflated.

:func:`unpack_game` gives back exactly the state bytes and the log entries, in order:
what every reader of a game gets is the same before and after (the store's
``game`` and ``game_log`` put them back; tests/server/store/test_packing.py and
tests/server/services/test_compaction.py check it).

A practice game finished longer ago than ``Settings.practice_retention_days`` is then
**summarised**: its packed string is deleted and its hash keeps only what the
player's history and the game's own page show (:data:`SUMMARY_KEEP`), marked
``summary``. Its statistics were counted when it ended (``pl:{name}:stats``); a
practice game is on no leaderboard.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence

import msgpack

#: the first byte of a packed game: its format
FORMAT = 1
#: the hash fields a packed game drops (kept in its packed string instead)
DROPPED = ("state",)
#: the hash field saying the game is packed (its packed string holds state and log)
PACKED = "packed"
#: the hash field saying the game was summarised to its result (no state, no log)
SUMMARY = "summary"
#: the fields a summarised game keeps: its history line (``SUMMARY_FIELDS`` of
#: ``server/services/records.py``, which tests/server/store/test_packing.py checks is
#: a subset) and who played which deal, when it ended
SUMMARY_KEEP = (
    "slug",
    "seed",
    "player",
    "mode",
    "status",
    "seq",
    "moves",
    "foundation",
    "total",
    "created",
    "updated",
    "finished",
    "date",
    "ranked",
    "clean",
    "auto",
    "out",
    "active",
    "assisted",
)


class CorruptPacked(ValueError):
    """Bytes that are no packed game of a format this code reads."""


def pack_game(state: bytes, log: Sequence[bytes]) -> bytes:
    """The final ``state`` bytes and the ``log`` entries of a finished game, packed."""
    distinct: dict[bytes, int] = {}
    order = [distinct.setdefault(entry, len(distinct)) for entry in log]
    width = 1 if len(distinct) <= 0x100 else 2 if len(distinct) <= 0x10000 else 4
    indices = b"".join(i.to_bytes(width, "big") for i in order)
    body = msgpack.packb([state, list(distinct), width, indices], use_bin_type=True)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: no header, no sum
    return bytes([FORMAT]) + deflate.compress(body) + deflate.flush()


def unpack_game(blob: bytes) -> tuple[bytes, list[bytes]]:
    """``(state, log)`` as :func:`pack_game` was given them."""
    if not blob or blob[0] != FORMAT:
        raise CorruptPacked(f"not a packed game of format {FORMAT}")
    try:
        state, distinct, width, indices = msgpack.unpackb(
            zlib.decompress(blob[1:], -15), raw=False, use_list=True
        )
        entries = [bytes(e) for e in distinct]
        log = [
            entries[int.from_bytes(indices[i : i + width], "big")]
            for i in range(0, len(indices), width)
        ]
    except CorruptPacked:
        raise
    except Exception as exc:
        raise CorruptPacked(f"cannot read a packed game: {exc}") from exc
    return bytes(state), log


def packed(raw: Mapping[str, bytes]) -> bool:
    """Whether a game's hash is of a packed game (its state and log in its string)."""
    return raw.get(PACKED) == b"1"


def summarised(raw: Mapping[str, bytes]) -> bool:
    """Whether a game's hash is of a game summarised to its result."""
    return raw.get(SUMMARY) == b"1"
