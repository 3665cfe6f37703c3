"""No English a player reads is left outside the catalogue: every string literal of
the terminal client that reads as words must be marked (``_()``, ``N_()``,
``ngettext()``) — else Russian players meet it in English. Words the catalogue gets
another way (argparse's help, through ``translate_parser``), Textual CSS and Rich
styles are not words a player reads."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the sources whose every literal sentence a player may read
SOURCES = ("client",)
MARKS = frozenset({"_", "N_", "ngettext"})
#: argparse's words: translated by protocol.i18n.translate_parser
PARSER_WORDS = frozenset({"help", "description", "epilog", "metavar"})
_WORD = re.compile(r"[A-Za-z]{2,}")
#: the words of a Rich style ("bold black on green")
STYLE_WORDS = frozenset(
    {
        *("bold", "dim", "italic", "reverse", "underline", "strike", "blink", "not", "on"),
        *("default", "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"),
        "grey",
    }
)


def _skipped(tree: ast.AST) -> set[int]:
    """The nodes whose strings are not a player's words."""
    skip: set[int] = set()

    def whole(node: ast.AST) -> None:
        skip.update(id(sub) for sub in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            whole(node)  # docstrings
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name in MARKS:
                whole(node)
            for kw in node.keywords:
                if kw.arg in PARSER_WORDS:
                    whole(kw.value)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id if isinstance(t, ast.Name) else getattr(t, "attr", "") for t in targets]
            if any(n.endswith("CSS") or n in ("DESCRIPTION", "EPILOG") for n in names):
                whole(node)
    return skip


def unmarked(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _skipped(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            skip.update(id(sub) for sub in ast.walk(node))
            text = "".join(
                str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values
            )
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        style = set(text.replace("bright_", "").split()) <= STYLE_WORDS
        if len(_WORD.findall(text)) >= 2 and " " in text.strip() and not style:
            yield node.lineno, text


def test_every_sentence_of_the_terminal_client_is_in_the_catalogue() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
        for top in SOURCES
        for path in sorted((ROOT / top).rglob("*.py"))
        for line, text in unmarked(path)
    ]
    assert not found, "not marked for the catalogue:\n" + "\n".join(found)


def test_the_check_finds_an_unmarked_sentence(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        'CSS = "Screen { layout: vertical; }"\n'
        'print(_("marked words here"))\n'
        'parser.add_argument("x", help="argparse says this")\n'
        'print(f"left {name} in English")\n'
    )
    assert [line for line, _ in unmarked(source)] == [4]
