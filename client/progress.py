"""One line of progress on stderr: a daily being certified, while a command waits."""

from __future__ import annotations

from typing import TextIO


class ProgressLine:
    """One line of progress that updates in place on a terminal (carriage return and
    erase to the end of the line); elsewhere (a file, a pipe) a line only when ``key``
    changes, so a log gets no repeated lines."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.last = ""
        self.key: object = None

    def show(self, text: str, key: object = None) -> None:
        if self.tty:
            if text != self.last:
                self.stream.write(f"\r\x1b[K{text}")
        elif self.key is None or key != self.key:
            self.stream.write(f"{text}\n")
        else:
            return
        self.stream.flush()
        self.last, self.key = text, key

    def done(self) -> None:
        if self.tty and self.last:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
