"""The par column: the par of a certified daily, ``unproven (N)`` for one the
solver could not prove winnable, and "—" (never an empty cell) when the server
gives no par (yet)."""

from __future__ import annotations

import pytest

from client.cli import EXIT_OK, main
from client.text import NO_PAR, PREPARING, daily_text, par_text, preparing


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
    rows = [line for line in lines[lines.index(header) + 1 :] if line.strip()]
    assert rows
    for row in rows:
        assert row[at:after].strip(), row  # par, unproven (N) or —


def test_the_games_still_being_certified_are_named() -> None:
    daily = {"games": {"crescent": {"preparing": True}, "short": {"par": 80}}}
    assert preparing(daily) == ["crescent"]
