"""The streak is said with what it counts, wherever the number is shown (issue 17,
item 14): ``pasyans daily`` and the home screen's heading (the home screen at 80×24:
tests/client/test_80x24.py)."""

from __future__ import annotations

from client.text import STREAK_MEANING, daily_text


def test_daily_text_says_what_the_streak_counts() -> None:
    out = daily_text({"date": "2026-03-14", "games": {}, "streak": 3})
    first, second = out.splitlines()[:2]
    assert "streak 3" in first
    assert second == f"streak: {STREAK_MEANING}"  # right under the number
    assert "by the rules" in STREAK_MEANING and "resigned" in STREAK_MEANING
