"""Delta replies (docs/protocol.md, "Delta replies"): the state a client holds, moved on
by one ``{"delta": …}`` answer to a ``move`` or ``undo`` sent with ``"reply": "delta"``.

Pure and the only implementation: the terminal client keeps its board with it, and
the tests check it against a fresh ``resume`` in every patience::

    state = apply_delta(state, reply["delta"])   # DeltaGap: ask for ``resume``

The state given is never changed: the result shares the piles, moves and info values
that did not change with it (treat states as values, as the client does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: fields a delta carries whole, replacing the state's
COUNTERS = ("seq", "status", "moves", "time_ms", "idle_left_ms", "foundation", "clean", "legal")


class DeltaGap(ValueError):
    """The delta does not follow the state held (another game, or ``seq`` not the
    next one): the client cannot build the new state and asks for ``resume``."""


def apply_delta(state: Mapping[str, Any], delta: Mapping[str, Any]) -> dict[str, Any]:
    """The state after ``delta``, which must be the answer to a request sent with
    ``state["seq"]``: :class:`DeltaGap` when it is for another game or its ``seq`` is
    not ``state["seq"] + 1`` (a delta of several moves says the ``from_seq`` it
    follows instead, which must be ``state["seq"]``). ``piles`` replaces the cards of
    the piles it names, ``pile_meta`` a whole pile object, ``info`` the keys it names
    (null: the key is gone); the counters and ``legal`` are replaced."""
    if delta.get("game_id") != state.get("game_id"):
        raise DeltaGap(f"a delta of game {delta.get('game_id')!r}, not {state.get('game_id')!r}")
    base = delta.get("from_seq")
    if base is not None:  # several moves at once (``auto``, ``finish``)
        if base != state.get("seq"):
            raise DeltaGap(f"a delta from seq {base}, the state held is at {state.get('seq')}")
    elif delta.get("seq") != state.get("seq", -2) + 1:
        raise DeltaGap(
            f"a delta to seq {delta.get('seq')}, the state held is at {state.get('seq')}"
        )
    out = dict(state)
    for key in COUNTERS:
        if key in delta:
            out[key] = delta[key]
    view = dict(state["view"])
    cards: Mapping[str, Any] = delta.get("piles") or {}
    meta: Mapping[str, Any] = delta.get("pile_meta") or {}
    if cards or meta:
        piles = []
        for pile in view["piles"]:
            pid = pile["id"]
            if pid in meta:
                pile = dict(meta[pid])
            elif pid in cards:
                pile = {**pile, "cards": cards[pid]}
            piles.append(pile)
        unknown = (cards.keys() | meta.keys()) - {p["id"] for p in piles}
        if unknown:
            raise DeltaGap(f"a delta of piles this state does not have: {sorted(unknown)}")
        view["piles"] = piles
    changed: Mapping[str, Any] = delta.get("info") or {}
    if changed:
        info = dict(view.get("info") or {})
        for key, value in changed.items():
            if value is None:
                info.pop(key, None)
            else:
                info[key] = value
        view["info"] = info
    out["view"] = view
    return out
