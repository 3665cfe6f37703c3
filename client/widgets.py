"""The board widget: a drawing of the view (see :mod:`client.drawing`) that reports
clicks as pile (and card) hits; and :class:`KeyFooter`, the footer of every screen.

The drawing fits the room the widget is given: when the full drawing is wider, the
board is drawn tighter (:data:`client.drawing.DENSITIES`), and only when even the
most compact drawing is too wide does its container scroll sideways.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Footer
from textual.widgets._footer import FooterKey
from textual.widgets.data_table import RowKey

from .drawing import Density, Drawing, Marks, draw, redrawn
from .lang import _, current


class BoardView(Widget, can_focus=True):
    """Every pile at its layout cell; the size is the drawing's."""

    DEFAULT_CSS = """
    BoardView { width: auto; height: auto; padding: 0 1; }
    """

    class PileClicked(Message):
        def __init__(self, pid: str, index: int | None) -> None:
            super().__init__()
            self.pid = pid
            self.index = index

    class Refitted(Message):
        """The board is now drawn in another :class:`~client.drawing.Density` (or
        other titles were cut short to fit)."""

        def __init__(self, density: Density) -> None:
            super().__init__()
            self.density = density

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.piles: Sequence[Mapping[str, Any]] = []
        self.marks = Marks()
        #: the width the drawing has to fit in (None until the first layout)
        self.room: int | None = None
        #: the rows it has (a drawing that does not fit them scrolls)
        self.rows: int | None = None
        self.drawing: Drawing = draw([])
        #: what :attr:`drawing` was laid out for (its piles; its room and language)
        self._drawn: tuple[Sequence[Mapping[str, Any]], tuple[object, ...]] | None = None

    @property
    def density(self) -> Density:
        return self.drawing.density

    def show(self, piles: Sequence[Mapping[str, Any]], marks: Marks) -> None:
        self.piles, self.marks = piles, marks
        self._draw()
        self.refresh(layout=True)

    def _draw(self) -> None:
        # A screen redraws on every change of what it shows (a counter, the hint, the
        # cursor) and the layout asks the width more than once. Choosing the density
        # draws the board up to eight times; it depends on the piles and the room
        # alone (marks change only styles): the same piles in the same room keep
        # their density and are drawn once again only if their marks changed.
        room = (self.room, self.rows, current().lang)
        if self._drawn is not None and self._drawn[1] == room and self._drawn[0] == self.piles:
            if self.marks != self.drawing.marks:
                self.drawing = redrawn(self.drawing, self.piles, self.marks)
            return
        self._drawn = (self.piles, room)
        was = self.drawing
        self.drawing = draw(self.piles, self.marks, width=self.room, height=self.rows)
        if (self.drawing.density, self.drawing.cut) != (was.density, was.cut):
            self.post_message(self.Refitted(self.drawing.density))

    def render(self) -> Text:
        return self.drawing.rich()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # The layout asks first how wide we are, offering the room there is (less
        # the padding, and less a scrollbar once one shows): draw for that room.
        if (container.width, container.height) != (self.room, self.rows):
            self.room, self.rows = container.width, container.height
            self._draw()
        return self.drawing.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.drawing.height

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        hit = self.drawing.hit(offset.x, offset.y)
        if hit is not None:
            event.stop()
            self.post_message(self.PileClicked(*hit))

    def offset_of(self, pid: str, index: int | None = None) -> tuple[int, int]:
        """Where to click (relative to the widget) to hit a pile, or one of its cards."""
        box = self.drawing.boxes[pid]
        left = self.styles.padding.left
        if index is not None:
            for i, x, y, _ in box.cards:
                if i == index:
                    return x + left, y
        return box.x + left, box.y


class Table(DataTable[Any]):
    """Textual's DataTable, its cells drawn again once its columns are measured.

    A DataTable measures its columns when it is next idle after rows are added, but
    keeps the lines of a cell it drew before then (its cache of a cell is not keyed
    by the column's width): a cell of two lines drawn in between stayed wrapped at
    the header's width ("Cres / cent") until something resized the table. A footer
    rebuilt on every change of bindings used to resize it by chance; a loaded
    machine drew in between more often."""

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        before = [c.get_render_width(self) for c in self.ordered_columns]
        super()._update_dimensions(new_rows)
        if before != [c.get_render_width(self) for c in self.ordered_columns]:
            self._clear_caches()
            self.refresh()


class KeyFooter(Footer):
    """The footer of every screen: the keys that work now, on as many lines as they
    need (up to three), so that an 80-column terminal shows them all; compact, and
    without the command palette's key (ctrl+p still opens it)."""

    DEFAULT_CSS = """
    KeyFooter {
        layout: grid; height: auto; max-height: 3;
        grid-columns: auto; grid-rows: 1; grid-gutter: 0 1;
    }
    KeyFooter.-compact FooterKey { margin: 0; }
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)
        self._width = 0
        #: what the keys shown were composed from (:meth:`_keys_now`)
        self._composed: tuple[object, ...] | None = None

    def _keys_now(self) -> tuple[object, ...]:
        """What the footer would show now: each key offered, its words, whether it
        works, in the language in use and the terminal's width."""
        shown = tuple(
            (key, b.action, b.description, b.key_display, enabled, tooltip)
            for key, (_node, b, enabled, tooltip) in self.screen.active_bindings.items()
            if b.show
        )
        return (current().lang, self.app.size.width, shown)

    async def recompose(self) -> None:
        # Textual rebuilds the footer on every change of bindings a screen signals
        # (a focus, a screen on top and back, each reply that may change a key): most
        # change nothing it shows, and rebuilding its keys is most of the cost of
        # showing a screen. Only a change of what it shows rebuilds it.
        if self._bindings_ready and self.is_attached and self._keys_now() == self._composed:
            return
        await super().recompose()

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._composed = self._keys_now()
        keys = list(super().compose())
        for key in keys:  # each screen's BINDINGS mark their words with N_
            if isinstance(key, FooterKey):
                key.description = _(key.description)
        widths = [
            cell_len(k.key_display) + 1 + cell_len(k.description)
            for k in keys
            if isinstance(k, FooterKey)
        ]
        self._width = self.app.size.width
        self.styles.grid_size_columns = columns_that_fit(widths, self._width)
        yield from keys

    def on_resize(self, event: events.Resize) -> None:
        if self.app.size.width != self._width:
            self.call_after_refresh(self.recompose)


def columns_that_fit(widths: Sequence[int], room: int, gutter: int = 1) -> int:
    """The most columns a grid of items of ``widths`` (row by row) can have in
    ``room`` cells, each column as wide as its widest item (at least one)."""
    for columns in range(len(widths), 1, -1):
        rows = [widths[i : i + columns] for i in range(0, len(widths), columns)]
        widest = [max(row[c] for row in rows if c < len(row)) for c in range(columns)]
        if sum(widest) + gutter * (columns - 1) <= room:
            return columns
    return 1
