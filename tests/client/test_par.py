"""The par column: the par of a certified daily, ``unproven (N)`` for one the
solver could not prove winnable, and "—" (never an empty cell) when the server
gives no par (yet)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from client.cli import EXIT_OK, main
from client.progress import ProgressLine
from client.text import (
    NO_PAR,
    PREPARING,
    certifying_text,
    daily_text,
    par_text,
    preparing,
    preparing_text,
    ready_in,
    unproven_label,
)


@pytest.mark.parametrize(
    ("entry", "shown"),
    [
        ({"par": 87, "certified": True, "best_founded": 104}, "87"),
        ({"par": None, "certified": False, "best_founded": 61}, "unproven (61)"),
        ({"par": None, "certified": False, "best_founded": None}, NO_PAR),
        ({"par": None, "certified": None}, NO_PAR),
        ({"par": None, "certified": True}, NO_PAR),
        ({}, NO_PAR),
        ({"preparing": True, "par": None, "certified": None}, PREPARING),
    ],
)
def test_par_text(entry: dict[str, object], shown: str) -> None:
    assert par_text(entry) == shown


def test_a_daily_without_par_shows_a_dash() -> None:
    daily = {
        "date": "2026-03-01",
        "streak": 0,
        "games": {"crescent": {"commitment": "ab" * 32, "par": None, "certified": None}},
    }
    row = next(line for line in daily_text(daily).splitlines() if line.startswith("crescent"))
    assert f" {NO_PAR} " in row


def test_every_daily_of_the_server_has_a_par_cell(
    server_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["daily"]) == EXIT_OK
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("game"))
    at, after = header.index("par"), header.index("commitment")
    below = lines[lines.index(header) + 1 :]
    rows = below[: below.index("")] if "" in below else below  # then unproven dailies
    assert rows
    for row in rows:
        assert row[at:after].strip(), row  # par, unproven (N) or —


def test_the_games_still_being_certified_are_named() -> None:
    daily = {"games": {"crescent": {"preparing": True}, "short": {"par": 80}}}
    assert preparing(daily) == ["crescent"]


def test_the_progress_of_the_dailies_still_being_certified() -> None:
    daily: dict[str, Any] = {
        "games": {
            "crescent": {"preparing": {"tried": 12, "elapsed_ms": 45_300, "estimate_ms": 700}},
            "hemispheres": {"preparing": {"tried": 3, "elapsed_ms": 4_000, "estimate_ms": 61_200}},
            "short": {"par": 80, "certified": True},
        }
    }
    # one short line whatever the number of games (it ran into the keys' help at 80x24)
    line = "certifying winnable deals: 1 of 3 games ready, all in about 62 seconds…"
    assert preparing_text(daily) == line
    no_estimate = {"crescent": {"preparing": {"tried": 0, "elapsed_ms": 0, "estimate_ms": None}}}
    assert preparing_text({"games": no_estimate}) == "certifying winnable deals: 0 of 1 game ready…"
    # a figure for every daily still waiting, or none (not the measured ones' alone)
    daily["games"]["parade"] = {"preparing": {"tried": 0, "elapsed_ms": 4_000, "estimate_ms": None}}
    assert preparing_text(daily) == "certifying winnable deals: 1 of 4 games ready…"
    del daily["games"]["parade"]
    crescent = daily["games"]["crescent"]["preparing"]
    assert certifying_text(crescent) == (
        "certifying a winnable deal (12 deals tried, ready in about 1 second)"
    )
    assert par_text(daily["games"]["hemispheres"]) == "certifying… ~62 s"
    assert par_text({"preparing": True}) == "certifying…"  # an older server
    assert ready_in({"estimate_ms": 600_000}) == "ready in about 10 minutes"


def test_an_unproven_daily_is_said_in_words() -> None:
    entry = {"par": None, "certified": False, "best_founded": 96, "total": 104}
    label = "not proven winnable (best line founds 96 of 104)"
    assert unproven_label(entry) == label
    # in the player's words, not the server's English label
    assert unproven_label({**entry, "label": "as the server says"}) == label
    assert unproven_label({"par": 80, "certified": True, "best_founded": 104}) is None
    assert unproven_label({"preparing": {"tried": 1, "elapsed_ms": 0}}) is None
    daily = {"date": "2026-03-01", "games": {"crescent": entry}}
    assert daily_text(daily).splitlines()[-1] == f"crescent: {label}"


def test_pasyans_daily_shows_one_progress_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Not a terminal: a line only when the number of games left changes."""
    line = ProgressLine(sys.stderr)
    for text, left in [("a 1 s", 2), ("a 3 s", 2), ("b 5 s", 1), ("b 7 s", 1)]:
        line.show(text, key=left)
    line.done()
    assert capsys.readouterr().err.splitlines() == ["a 1 s", "b 5 s"]
