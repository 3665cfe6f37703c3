"""Draw any game from the server's view: piles placed by their layout cells.

The client knows no game. Every pile of ``state["view"]["piles"]`` carries its
layout cell (``x``, ``y``), how it fans (``none`` shows the top card and a count,
``down`` one card per line, ``right`` cards side by side) and an optional ``orient``;
:func:`draw` turns that into a character canvas. The same drawing gives the
plain-text board of script mode (:meth:`Drawing.plain`), the styled board of the
Textual client (:meth:`Drawing.rich`) and the click map (:meth:`Drawing.hit`).

Each column of cells is as wide as its widest pile, each row as tall as its
tallest, so a game with long fanned piles simply draws taller rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from protocol.cards import is_code, pretty
from protocol.cards import parse as parse_card

#: the width of one card on the board ("10♦", " 9♣", "▒▒▒")
CARD_WIDTH = 3
FACE_DOWN = "▒▒▒"
EMPTY = "  ·"
#: a fanned-right pile wraps after this many cards
ROW_CARDS = 12
#: piles whose lower cards never play show only their last cards
SHORT_KINDS = frozenset({"waste", "foundation", "discard"})
SHORT_CARDS = 8
COLUMN_GAP = 2
ROW_GAP = 1
ORIENT_MARK = {"h": "↔", "v": "↕"}

#: styles (Rich) of the board's parts; the plain text ignores them
STYLE_RED = "bold red"
STYLE_BLACK = "bold"
STYLE_BACK = "blue"
STYLE_EMPTY = "dim"
STYLE_HEADER = "cyan"
STYLE_SOURCE = "bold reverse yellow"
STYLE_TARGET = "bold black on green"
STYLE_CANDIDATE = "bold cyan"
STYLE_CURSOR = "underline"
STYLE_CHOSEN = "reverse"


@dataclass(frozen=True)
class Marks:
    """What the Textual board highlights: the chosen source, the legal targets of
    that source, the piles a move can start from, and the keyboard cursor."""

    source: str | None = None
    #: the card of the source a click chose (None: its top card)
    card: int | None = None
    targets: frozenset[str] = frozenset()
    sources: frozenset[str] = frozenset()
    cursor: str | None = None


@dataclass(frozen=True)
class Box:
    """Where a pile landed: its rectangle and, per card index, the line it sits on
    and its columns (for clicks on a single card of a spread pile)."""

    pid: str
    x: int
    y: int
    width: int
    height: int
    cards: tuple[tuple[int, int, int, int], ...] = ()  # (index, x, y, width)

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height


@dataclass
class Drawing:
    """A drawn board: lines of ``(text, style)`` cells and the pile boxes."""

    width: int
    height: int
    cells: list[list[tuple[str, str]]]
    boxes: dict[str, Box] = field(default_factory=dict)

    def plain(self) -> str:
        return "\n".join("".join(ch for ch, _ in row).rstrip() for row in self.cells)

    def rich(self) -> Text:
        text = Text(no_wrap=True, end="")
        for n, row in enumerate(self.cells):
            if n:
                text.append("\n")
            run, style = "", ""
            for ch, st in row:
                if st != style and run:
                    text.append(run, style or None)
                    run = ""
                run += ch
                style = st
            if run:
                text.append(run, style or None)
        return text

    def hit(self, x: int, y: int) -> tuple[str, int | None] | None:
        """The pile (and card index, when a card was hit) under a character cell."""
        for box in self.boxes.values():
            if box.contains(x, y):
                for index, cx, cy, w in box.cards:
                    if cy == y and cx <= x < cx + w:
                        return box.pid, index
                return box.pid, None
        return None


@dataclass
class _Block:
    pid: str
    lines: list[list[tuple[str, str]]]
    cards: list[tuple[int, int, int, int]]  # (index, dx, dy, width)

    @property
    def width(self) -> int:
        return max((sum(len(t) for t, _ in line) for line in self.lines), default=0)


def _card_style(code: str | None) -> str:
    if code is None:
        return STYLE_BACK
    return STYLE_RED if parse_card(code).red else STYLE_BLACK


def _card(code: str | None) -> str:
    return FACE_DOWN if code is None else pretty(code).rjust(CARD_WIDTH)


def header(pile: Mapping[str, Any]) -> str:
    """A pile's title line: id, label when it says more, base, orientation."""
    parts = [str(pile["id"])]
    label = str(pile.get("label") or "")
    if label and label != pile["id"]:
        parts.append(label)
    base = pile.get("base")
    if base:
        parts.append(f"base {pretty(base) if is_code(base) else base}")
    text = " ".join(parts)
    return text + ORIENT_MARK.get(str(pile.get("orient") or ""), "")


def _block(pile: Mapping[str, Any], marks: Marks) -> _Block:
    pid = str(pile["id"])
    cards: list[str | None] = list(pile.get("cards") or [])
    head_style = STYLE_HEADER
    if pid == marks.source:
        head_style = STYLE_SOURCE
    elif pid in marks.targets:
        head_style = STYLE_TARGET
    elif marks.source is None and pid in marks.sources:
        head_style = STYLE_CANDIDATE
    if pid == marks.cursor:
        head_style += " " + STYLE_CURSOR
    lines: list[list[tuple[str, str]]] = [[(header(pile), head_style)]]
    spans: list[tuple[int, int, int, int]] = []
    chosen = -1
    if pid == marks.source:
        chosen = len(cards) - 1 if marks.card is None else marks.card

    def style(i: int) -> str:
        base = _card_style(cards[i])
        return f"{base} {STYLE_CHOSEN}" if i == chosen else base

    fan = pile.get("fan", "none")
    if not cards:
        lines.append([(EMPTY, STYLE_EMPTY)])
    elif fan == "down":
        for i, code in enumerate(cards):
            lines.append([(_card(code), style(i))])
            spans.append((i, 0, i + 1, CARD_WIDTH))
    elif fan == "right":
        first = 0
        if pile.get("kind") in SHORT_KINDS and len(cards) > SHORT_CARDS:
            first = len(cards) - SHORT_CARDS
        row: list[tuple[str, str]] = []
        dx = 0
        if first:
            more = f"+{first}"
            row.append((more, STYLE_EMPTY))
            dx = len(more)
        for i in range(first, len(cards)):
            if row and (i - first) % ROW_CARDS == 0:
                lines.append(row)
                row, dx = [], 0
            if dx:
                row.append((" ", ""))
                dx += 1
            row.append((_card(cards[i]), style(i)))
            spans.append((i, dx, len(lines), CARD_WIDTH))
            dx += CARD_WIDTH
        lines.append(row)
    else:
        line = [(_card(cards[-1]), style(len(cards) - 1))]
        if len(cards) > 1:
            line.append((f" ×{len(cards)}", STYLE_EMPTY))
        lines.append(line)
        spans.append((len(cards) - 1, 0, 1, CARD_WIDTH))
    return _Block(pid, lines, spans)


def draw(piles: Sequence[Mapping[str, Any]], marks: Marks | None = None) -> Drawing:
    """Lay out ``piles`` (a view's pile objects) by their cells into a drawing."""
    marks = marks or Marks()
    blocks = [(pile, _block(pile, marks)) for pile in piles]
    widths: dict[int, int] = {}
    heights: dict[int, int] = {}
    for pile, block in blocks:
        x, y = int(pile["x"]), int(pile["y"])
        widths[x] = max(widths.get(x, 0), block.width)
        heights[y] = max(heights.get(y, 0), len(block.lines))
    left = _offsets(widths, COLUMN_GAP)
    top = _offsets(heights, ROW_GAP)
    width = max((left[x] + w for x, w in widths.items()), default=0)
    height = max((top[y] + h for y, h in heights.items()), default=0)
    cells = [[(" ", "")] * width for _ in range(height)]
    boxes: dict[str, Box] = {}
    for pile, block in blocks:
        bx, by = left[int(pile["x"])], top[int(pile["y"])]
        for dy, line in enumerate(block.lines):
            cx = bx
            for text, style in line:
                for ch in text:
                    if cx < width:
                        cells[by + dy][cx] = (ch, style)
                    cx += 1
        boxes[block.pid] = Box(
            block.pid,
            bx,
            by,
            widths[int(pile["x"])],
            len(block.lines),
            tuple((i, bx + dx, by + dy, w) for i, dx, dy, w in block.cards),
        )
    return Drawing(width, height, cells, boxes)


def _offsets(sizes: Mapping[int, int], gap: int) -> dict[int, int]:
    """Start of each occupied cell index, cells in order, empty indexes skipped."""
    out: dict[int, int] = {}
    pos = 0
    for key in sorted(sizes):
        out[key] = pos
        pos += sizes[key] + gap
    return out


def pile_ids(piles: Iterable[Mapping[str, Any]]) -> list[str]:
    return [str(p["id"]) for p in piles]
