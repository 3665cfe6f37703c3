"""Your statistics (s on the home screen): per game and overall, and a small bar
chart of the last 30 days' results."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from ..lang import N_, _, ngettext
from ..records import LOST_CELL, WON_CELL, chart_rows, stats, stats_row
from ..text import STREAK_MEANING, game_name, rating_value, title
from ..tournaments import stats_words
from ..widgets import KeyFooter, Table
from .base import HostedScreen


def chart(days: list[Mapping[str, Any]], height: int = 5) -> Text:
    """The chart of :func:`client.records.chart_rows`, won green and lost red."""
    out = Text()
    for row in chart_rows(days, height):
        out.append("│")
        for cell in row:
            style = "green" if cell == WON_CELL else "red" if cell == LOST_CELL else ""
            out.append(cell, style=style)
        out.append("\n")
    out.append("└" + "─" * len(days) + "\n")
    if days:
        first, last = str(days[0]["date"]), str(days[-1]["date"])
        out.append(" " + first + last.rjust(max(len(days) - len(first), len(last) + 1)) + "\n")
    won = sum(int(d.get("won", 0)) for d in days)
    lost = sum(int(d.get("lost", 0)) for d in days)
    said = ngettext(
        "last {n} day: {won} won {won_cell}, {lost} lost {lost_cell}",
        "last {n} days: {won} won {won_cell}, {lost} lost {lost_cell}",
        len(days),
        won=won,
        lost=lost,
        won_cell="\0",
        lost_cell="\1",
    )
    for part in re.split("([\0\1])", said):
        if part == "\0":
            out.append(WON_CELL, style="green")
        elif part == "\1":
            out.append(LOST_CELL, style="red")
        else:
            out.append(part)
    return out


#: the statistics table's columns on the screen: short, so that every one fits 80
#: columns (the legend under the chart says what the short ones mean)
SCREEN_HEADER = [
    N_("game"),
    N_("games"),
    N_("wins"),
    N_("win %"),
    N_("moves"),
    N_("time"),
    N_("avg"),
    N_("dailies"),
    N_("streak"),
    N_("rating"),
]
#: …and that legend
LEGEND = N_("moves/time: best win · avg: cards founded · dailies won/played · streak (best)")
#: …and of the rating column (issue 51)
RATING_LEGEND = N_("rating: from races on fresh deals · ? provisional (fewer than 5 races)")
#: the overall row's name
ALL_GAMES = N_("all games")


def screen_row(row: list[Any], rating: str = "") -> list[str]:
    """A row of :func:`client.records.stats_row` in the screen's short cells, and the
    game's rating (:func:`client.text.rating_value`; none on the overall row)."""
    name, played, won, pct, moves, time, avg, dailies, streak = (str(c) for c in row)
    dailies = " ".join(re.findall(r"\d+/\d+", dailies)) or dailies  # "3/5 won": "3/5"
    counts = re.findall(r"\d+", streak)  # "2 (best 4)": "2 (4)"
    streak = f"{counts[0]} ({counts[1]})" if len(counts) == 2 else streak
    return [name, played, won, pct, moves, time, avg, dailies, streak, rating]


def fit_names(rows: list[list[str]], width: int) -> list[list[str]]:
    """The rows with their game names cut (``…``) so that the table is at most
    ``width`` cells wide (a cell takes its text and one space); a name is never cut
    below 12 cells."""
    header = [_(h) for h in SCREEN_HEADER]
    rest = sum(max(cell_len(r[i]) for r in [header, *rows]) + 1 for i in range(1, len(header)))
    room = max(12, width - rest - 1)
    return [[_cut(r[0], room), *r[1:]] for r in rows]


def _cut(text: str, room: int) -> str:
    if cell_len(text) <= room:
        return text
    return text[: room - 1].rstrip() + "…"


class StatsScreen(HostedScreen):
    DEFAULT_CSS = """
    StatsScreen { layout: vertical; }
    StatsScreen #head { height: auto; background: $primary; color: $text; padding: 0 1; }
    StatsScreen DataTable { height: 1fr; }
    StatsScreen #detail { height: auto; padding: 0 1; }
    StatsScreen #chart { height: auto; padding: 0 1; }
    StatsScreen #status { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [  # noqa: RUF012 (a key table: alike in shape on every screen, by design)
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, player: str | None = None) -> None:
        super().__init__()
        self.player = player
        self.result: dict[str, Any] = {}
        #: the full title of each row (the table may cut them)
        self.names: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        # no padding in the cells: each starts with one space (80 columns hold them all)
        yield Table(id="stats", cursor_type="row", zebra_stripes=True, cell_padding=0)
        yield Static(id="detail", markup=False)
        yield Static(id="chart")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.fetch(lambda: stats(self.host.conn, self.player), self.draw)

    def draw(self, result: dict[str, Any]) -> None:
        table = self.query_one(DataTable)
        self.result = result
        self.names = [_(ALL_GAMES)]
        rows = [screen_row(stats_row(_(ALL_GAMES), self.result["overall"]))]
        ratings = dict(self.result.get("ratings") or {})
        for slug, block in (self.result.get("games") or {}).items():
            self.names.append(title(slug, self.host.titles))
            rated = rating_value(ratings.get(slug)) if slug in ratings else "—"
            rows.append(screen_row(stats_row(game_name(slug, self.host.titles), block), rated))
        table.add_columns(*(" " + _(h) for h in SCREEN_HEADER))
        for row in fit_names(rows, self.app.size.width - 2):  # the scrollbar
            table.add_row(*(" " + c for c in row))
        head = _("pasyans · statistics of {player}", player=self.result["player"])
        tournaments = stats_words(self.result.get("tournaments"))
        if tournaments:  # issue 51
            head += " · " + tournaments
        self.query_one("#head", Static).update(head)
        self.query_one("#chart", Static).update(chart(list(self.result.get("days") or [])))
        legend = [_(LEGEND), _("streak: {meaning}", meaning=_(STREAK_MEANING))]
        if ratings:
            legend.append(_(RATING_LEGEND))
        self.say("\n".join(legend))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The chosen row's game in full (the table cuts long titles)."""
        row = event.cursor_row
        if 0 <= row < len(self.names):
            self.query_one("#detail", Static).update(self.names[row])
