"""The board widget: a drawing of the view (see :mod:`client.board`) that reports
clicks as pile (and card) hits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from .board import Drawing, Marks, draw


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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawing: Drawing = draw([])

    def show(self, piles: Sequence[Mapping[str, Any]], marks: Marks) -> None:
        self.drawing = draw(piles, marks)
        self.refresh(layout=True)

    def render(self) -> Text:
        return self.drawing.rich()

    def get_content_width(self, container: Size, viewport: Size) -> int:
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
