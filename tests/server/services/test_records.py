"""``Record.changed``: a change of a game's position keeps every field it does not set."""

from __future__ import annotations

import dataclasses
from typing import Any

from server.services.records import Record

#: what a change of position sets (the parameters of ``Record.changed``)
SET = (
    "seq",
    "status",
    "state",
    "updated",
    "finished",
    "moves",
    "foundation",
    "clean",
    "active",
    "packed_piles",
)


def test_changed_sets_its_fields_and_keeps_every_other() -> None:
    # A distinct object per field: a field left out of ``changed`` (one added to
    # Record later, say) would come back as its default, not as this object.
    old: dict[str, Any] = {f.name: object() for f in dataclasses.fields(Record)}
    new: dict[str, Any] = {name: object() for name in SET}
    rec = Record(**old).changed(**new)
    for f in dataclasses.fields(Record):
        expected = new[f.name] if f.name in SET else old[f.name]
        assert getattr(rec, f.name) is expected, f.name


def test_changed_is_replace() -> None:
    old: dict[str, Any] = {f.name: f.name for f in dataclasses.fields(Record)}
    new: dict[str, Any] = {name: name.upper() for name in SET}
    assert Record(**old).changed(**new) == dataclasses.replace(Record(**old), **new)
