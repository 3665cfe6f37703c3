"""Draw any game from the server's view: piles placed by their layout cells.

The client knows no game. Every pile of ``state["view"]["piles"]`` carries its
layout cell (``x``, ``y``), how it fans (``none`` shows the top card and a count,
``down`` one card per line, ``right`` cards side by side) and an optional ``orient``;
:func:`draw` turns that into a character canvas. The same drawing gives the
plain-text board of script mode (:meth:`Drawing.plain`), the styled board of the
Textual client (:meth:`Drawing.rich`) and the click map (:meth:`Drawing.hit`).

Each row of cells is as tall as its tallest pile, and each column as wide as the
piles in it, so columns line up across rows; a pile alone on its row (a reserve
spread out under the table) runs on into the cells to its right instead of
widening its column.

Given a ``width`` (the room the terminal has for the board), :func:`draw` picks the
first of :data:`DENSITIES` whose drawing fits: ``full`` as above; ``tight`` (titles
cut, whole words at a time, to what the cards leave of the room, instead of
widening their columns, and every pile may run on into the empty cells of its
row); ``narrow`` (also one space between columns); ``compact`` (also a squared
pile's count under its card, and fanned rows wrapped after fewer cards). Given a
``height`` too (the rows the terminal has for it), a drawing must fit that too:
then ``dense`` and ``densest`` (``tight`` and ``compact`` with no blank line between
rows of piles) come after ``compact``. A pile's id is never cut, and
:attr:`Drawing.cut` keeps every cut title whole. Everything comes from the view's
cells and cards, nothing from a game's rules; when even ``compact`` is too wide,
the drawing is wider than ``width`` and its container scrolls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rich.text import Text

from protocol.cards import is_code, pretty
from protocol.cards import parse as parse_card
from protocol.i18n import label_key

from .lang import _, current

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
#: marks a title cut short to fit (the whole title is in :attr:`Drawing.cut`)
CUT_MARK = "…"

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
class Density:
    """How tightly to draw a board.

    ``gap``: spaces between columns. ``fit_titles``: a pile's title does not widen
    its column beyond the room the board can spare; it is cut, whole words at a time,
    to the room its pile has (the id always stays). ``run_on``: every pile may run on
    into the cells its row leaves empty to its right (otherwise only a pile alone
    on its row does). ``count_below``: a squared pile's count goes on the line under
    its card instead of beside it. ``row_cards``: a fanned-right pile wraps after
    this many cards. ``row_gap``: blank lines between rows of piles. ``mark_gap``:
    the spaces after a pile whose title ends in an orientation mark (``G00↕G01↔``:
    the mark already parts the titles); None: ``gap``.
    """

    name: str
    gap: int = COLUMN_GAP
    fit_titles: bool = False
    run_on: bool = False
    count_below: bool = False
    row_cards: int = ROW_CARDS
    row_gap: int = ROW_GAP
    mark_gap: int | None = None


FULL = Density("full")
TIGHT = Density("tight", fit_titles=True, run_on=True)
NARROW = Density("narrow", gap=1, fit_titles=True, run_on=True)
COMPACT = Density("compact", gap=1, fit_titles=True, run_on=True, count_below=True, row_cards=6)
DENSE = Density("dense", fit_titles=True, run_on=True, row_gap=0)
DENSEST = Density(
    "densest", gap=1, fit_titles=True, run_on=True, count_below=True, row_cards=6, row_gap=0
)
#: the last resorts: oriented piles' titles touch (squaring the circle at 80 columns)
CRAMPED = replace(COMPACT, name="cramped", mark_gap=0)
TIGHTEST = replace(DENSEST, name="tightest", mark_gap=0)
#: tried in this order by :func:`draw` when it is given a width
DENSITIES = (FULL, TIGHT, NARROW, COMPACT, CRAMPED)
#: tried after those when it is given a height too (rows run together)
DENSER = (DENSE, DENSEST, TIGHTEST)


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
    """A drawn board: lines of ``(text, style)`` cells and the pile boxes.

    ``density`` is the :class:`Density` it was drawn with; ``cut`` maps the id of
    each pile whose title was shortened to its whole title (see :func:`header`).
    """

    width: int
    height: int
    cells: list[list[tuple[str, str]]]
    boxes: dict[str, Box] = field(default_factory=dict)
    density: Density = FULL
    cut: dict[str, str] = field(default_factory=dict)
    #: what it highlights, and the width its titles were fitted to (None: not fitted)
    marks: Marks = field(default_factory=Marks)
    room: int | None = None

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


def _card_style(code: str | None) -> str:
    if code is None:
        return STYLE_BACK
    return STYLE_RED if parse_card(code).red else STYLE_BLACK


def _card(code: str | None) -> str:
    return FACE_DOWN if code is None else pretty(code).rjust(CARD_WIDTH)


def _title_words(pile: Mapping[str, Any]) -> tuple[list[str], str]:
    """A pile's title as words that are kept or dropped whole (the id first, then
    the label's words but the id again, then ``base …``), and its orientation mark."""
    pid = str(pile["id"])
    words = [pid]
    label = str(pile.get("label") or "")
    words_ = current()
    key = label_key(label)
    if words_.lang != "en" and key is not None:  # an English word label, said in words_'
        # (else, a label of a position's own, by the pile's name)
        label = words_.say(key) if words_.known(key) else words_.pile(pile, ids=False)
    said = label.split()
    if said[:1] == [pid]:  # a label that starts with the id (``P2 NW``) says it once
        said = said[1:]
    words.extend(said)
    base = pile.get("base")
    if base:
        shown = pretty(base) if is_code(base) else base
        words.append(_("base {base}", base=shown) if words_.lang != "en" else f"base {shown}")
    return words, ORIENT_MARK.get(str(pile.get("orient") or ""), "")


def header(pile: Mapping[str, Any]) -> str:
    """A pile's title line: id, label when it says more, base, orientation."""
    words, mark = _title_words(pile)
    return " ".join(words) + mark


def short_header(pile: Mapping[str, Any], room: int) -> str:
    """The title in ``room`` characters, dropping whole words from the end: a shorter
    title by design, never one cut with ``…`` (the whole title is on the hint line
    when the cursor is on the pile, :attr:`Drawing.cut`). The id and orientation
    mark always stay. A direction that would go is shown by its end instead
    (``A→K`` as ``F1 →K``, or ``F1→K`` when tighter; ``A↑`` as ``FA-S↑``): F1 →K and
    F5 →A, FA-S↑ and FK-S↓ still differ."""
    words, mark = _title_words(pile)
    # (the text, how many of the words it keeps), the longest first
    tries = [(" ".join(words[:keep]), keep) for keep in range(len(words), 0, -1)]
    for keep in range(len(words), 1, -1):
        ends = " ".join(_by_its_end(w) for w in words[1:keep])
        if ends != " ".join(words[1:keep]):
            tries[-1:-1] = [(f"{words[0]} {ends}", keep), (words[0] + ends, keep)]
    for text, keep in tries:
        if len(text + mark) > room and keep > 1:
            continue
        return text + mark
    return words[0] + mark  # not reached: the id alone is always tried


#: the arrows a direction ends in (``A→K``, ``A↑``, ``K↓``)
_ARROWS = ("→", "↑", "↓")


def _by_its_end(word: str) -> str:
    """``A→K`` as ``→K``, ``A↑`` as ``↑``: where a pile builds to says which way it
    goes (F1 →K beside F5 →A), in the room of a compact column."""
    start, arrow, end = word.partition("→")
    if start and arrow and end:
        return arrow + end
    if len(word) > 1 and word[-1] in _ARROWS[1:] and "→" not in word:
        return word[-1]
    return word


@dataclass
class _Block:
    """A pile's cards as lines (the title is set later, once its room is known)."""

    pile: Mapping[str, Any]
    pid: str
    lines: list[list[tuple[str, str]]]
    cards: list[tuple[int, int, int, int]]  # (index, dx, dy, width); dy 1 = first line
    head_style: str

    @property
    def body_width(self) -> int:
        return max((sum(len(t) for t, _ in line) for line in self.lines), default=0)


def _block(pile: Mapping[str, Any], marks: Marks, density: Density) -> _Block:
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
    lines: list[list[tuple[str, str]]] = []
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
            if row and (i - first) % density.row_cards == 0:
                lines.append(row)
                row, dx = [], 0
            if dx:
                row.append((" ", ""))
                dx += 1
            row.append((_card(cards[i]), style(i)))
            spans.append((i, dx, len(lines) + 1, CARD_WIDTH))
            dx += CARD_WIDTH
        lines.append(row)
    else:
        line = [(_card(cards[-1]), style(len(cards) - 1))]
        count = f"×{len(cards)}"
        if len(cards) > 1 and density.count_below:
            lines.append(line)
            line = [(count.rjust(CARD_WIDTH), STYLE_EMPTY)]
        elif len(cards) > 1:
            line.append((" " + count, STYLE_EMPTY))
        lines.append(line)
        spans.append((len(cards) - 1, 0, 1, CARD_WIDTH))
    return _Block(pile, pid, lines, spans, head_style)


class _Grid:
    """The columns of a set of piles: where each occupied column starts, given every
    pile's width. A pile pushes the column after its own along by its width, so
    columns line up across rows; a pile that runs on (alone on its row, or any pile
    with ``density.run_on``) pushes only the next pile of its own row, and the last
    pile of a row only sets the board's width."""

    def __init__(self, blocks: Sequence[_Block], density: Density) -> None:
        #: per pile, the spaces after it
        self.gaps = {
            b.pid: density.gap
            if density.mark_gap is None or not _title_words(b.pile)[1]
            else density.mark_gap
            for b in blocks
        }
        self.cells = {b.pid: (int(b.pile["x"]), int(b.pile["y"])) for b in blocks}
        self.xs = sorted({x for x, _ in self.cells.values()})
        rows: dict[int, list[int]] = {}
        for x, y in self.cells.values():
            rows.setdefault(y, []).append(x)
        #: per column, the next occupied column (None: the last one)
        self.after: dict[int, int | None] = {
            x: (self.xs[n + 1] if n + 1 < len(self.xs) else None) for n, x in enumerate(self.xs)
        }
        #: per pile, the x of the next pile on its row (None: the last of its row)
        self.row_next = {
            pid: min((nx for nx in rows[y] if nx > x), default=None)
            for pid, (x, y) in self.cells.items()
        }
        #: per column, the piles that push it along: (pid, the x they start at)
        self.pushes: dict[int, list[tuple[str, int]]] = {}
        for pid, (x, y) in self.cells.items():
            runs_on = density.run_on or len(rows[y]) == 1
            reach = self.row_next[pid] if runs_on else self.after[x]
            if reach is not None:
                self.pushes.setdefault(reach, []).append((pid, x))

    def place(self, widths: Mapping[str, int]) -> tuple[dict[int, int], int]:
        """The start of each column and the board's width."""
        left: dict[int, int] = {}
        start = 0
        for x in self.xs:
            for pid, px in self.pushes.get(x, ()):
                start = max(start, left[px] + widths[pid] + self.gaps[pid])
            left[x] = start
            start += 1  # the next column starts to the right of this one
        width = max((left[x] + widths[pid] for pid, (x, _) in self.cells.items()), default=0)
        return left, width

    def width(self, widths: Mapping[str, int]) -> int:
        return self.place(widths)[1]

    def room(self, pid: str, left: Mapping[int, int], width: int) -> int:
        """From the pile's column to the next pile of its row (or the board's edge)."""
        x, nx = self.cells[pid][0], self.row_next[pid]
        return (left[nx] - self.gaps[pid] if nx is not None else width) - left[x]

    def column(self, pid: str, left: Mapping[int, int], width: int, own: int) -> int:
        """What a click may hit: the pile's own column (at least ``own`` wide) within
        its room."""
        x = self.cells[pid][0]
        nxt = self.after[x]
        span = left[nxt] - self.gaps[pid] - left[x] if nxt is not None else own
        return max(own, min(self.room(pid, left, width), span))


def _fit_widths(
    grid: _Grid, blocks: Sequence[_Block], density: Density, width: int | None
) -> dict[str, int]:
    """Every pile's width: its cards and whole title; with ``fit_titles`` and a
    ``width`` too narrow for that, as much title as the board can spare. First a
    common cap for all piles (the largest that fits); then whole titles for the
    piles of a row that need the same few characters more, all of them or none (so
    alike piles look alike), the smallest need first, while they fit."""
    full = {b.pid: max(b.body_width, len(header(b.pile))) for b in blocks}
    if not density.fit_titles or width is None or grid.width(full) <= width:
        return full
    least = {b.pid: max(b.body_width, len(short_header(b.pile, 0))) for b in blocks}

    def capped(cap: int) -> dict[str, int]:
        return {pid: min(full[pid], max(least[pid], cap)) for pid in full}

    lo, hi = 0, max(full.values(), default=0)  # the largest cap that fits (or 0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if grid.width(capped(mid)) <= width:
            lo = mid
        else:
            hi = mid - 1
    widths = capped(lo)
    if grid.width(widths) > width:
        return widths
    groups: dict[tuple[int, int], list[str]] = {}
    for pid, w in widths.items():
        if w < full[pid]:
            groups.setdefault((full[pid] - w, grid.cells[pid][1]), []).append(pid)
    for key in sorted(groups):
        trial = dict(widths)
        trial.update((pid, full[pid]) for pid in groups[key])
        if grid.width(trial) <= width:
            widths = trial
    return widths


def draw(
    piles: Sequence[Mapping[str, Any]],
    marks: Marks | None = None,
    *,
    width: int | None = None,
    height: int | None = None,
) -> Drawing:
    """Lay out ``piles`` (a view's pile objects) by their cells into a drawing.

    Without ``width``, the full drawing. With it, the first of :data:`DENSITIES`
    that fits in ``width`` characters (the last one, wider, when none does). With
    ``height`` too, the first of those and then of :data:`DENSER` that fits in
    ``width`` × ``height``; when none does, what ``width`` alone picks.
    """
    marks = marks or Marks()
    drawing = draw_with(piles, marks, FULL)
    if width is None:
        return drawing
    shortest = None  # of those that fit the width
    for density in (*DENSITIES, *(DENSER if height is not None else ())):
        if density is not FULL:
            drawing = draw_with(piles, marks, density, width=width)
        if drawing.width > width:
            continue
        if height is None or drawing.height <= height:
            return drawing
        if shortest is None or drawing.height < shortest.height:
            shortest = drawing
    return shortest or drawing


def draw_with(
    piles: Sequence[Mapping[str, Any]],
    marks: Marks,
    density: Density,
    *,
    width: int | None = None,
) -> Drawing:
    """The drawing in one :class:`Density`, titles fitted to ``width`` when the
    density fits titles."""
    blocks = [_block(pile, marks, density) for pile in piles]
    grid = _Grid(blocks, density)
    widths = _fit_widths(grid, blocks, density, width)
    left, board_width = grid.place(widths)
    heights: dict[int, int] = {}
    for b in blocks:
        y = int(b.pile["y"])
        heights[y] = max(heights.get(y, 0), 1 + len(b.lines))
    top = _offsets(heights, density.row_gap)
    height = max((top[y] + h for y, h in heights.items()), default=0)
    cells = [[(" ", "")] * board_width for _ in range(height)]
    boxes: dict[str, Box] = {}
    cut: dict[str, str] = {}
    # Alike piles of a row (the same title but their ids) are titled alike: each in
    # the room of the tightest of them (not FA-S ↑ … FA-C A↑ because FA-C had room).
    rooms: dict[str, int] = {}
    if density.fit_titles:
        alike: dict[tuple[int, tuple[str, ...]], int] = {}
        for b in blocks:
            rooms[b.pid] = grid.room(b.pid, left, board_width)
            key = (int(b.pile["y"]), tuple(_title_words(b.pile)[0][1:]))
            alike[key] = min(alike.get(key, rooms[b.pid]), rooms[b.pid])
        for b in blocks:
            rooms[b.pid] = alike[(int(b.pile["y"]), tuple(_title_words(b.pile)[0][1:]))]
    for b in blocks:
        bx, by = left[int(b.pile["x"])], top[int(b.pile["y"])]
        title = header(b.pile)
        if density.fit_titles:
            short = short_header(b.pile, rooms[b.pid])
            if short != title:
                cut[b.pid] = title
            title = short
        lines = [[(title, b.head_style)], *b.lines]
        for dy, line in enumerate(lines):
            cx = bx
            for text, style in line:
                for ch in text:
                    if cx < board_width:
                        cells[by + dy][cx] = (ch, style)
                    cx += 1
        boxes[b.pid] = Box(
            b.pid,
            bx,
            by,
            max(grid.column(b.pid, left, board_width, widths[b.pid]), len(title)),
            len(lines),
            tuple((i, bx + dx, by + dy, w) for i, dx, dy, w in b.cards),
        )
    return Drawing(board_width, height, cells, boxes, density, cut, marks, width)


def redrawn(drawing: Drawing, piles: Sequence[Mapping[str, Any]], marks: Marks) -> Drawing:
    """``drawing`` of ``piles`` with other ``marks``. Marks change styles, never a
    size: the density :func:`draw` chose for these piles in this room stays, and the
    board is drawn once instead of once for each density tried."""
    return draw_with(piles, marks, drawing.density, width=drawing.room)


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
