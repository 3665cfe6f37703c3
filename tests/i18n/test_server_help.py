"""``pasyans-server``'s help in the operator's language (docs/i18n.md, issue 38)."""

from __future__ import annotations

import argparse

import pytest

from protocol.i18n import translate_parser
from server.__main__ import build_parser, operator_words


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_command_of_the_server_says_its_help_in_russian(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # translate_parser sets argparse's own words: give them back after the test
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)  # type: ignore[attr-defined]
    monkeypatch.setenv("PASYANS_LANG", "ru")
    monkeypatch.setenv("LANG", "en_US.UTF-8")  # PASYANS_LANG wins over the locale
    monkeypatch.setenv("COLUMNS", "80")
    parser = translate_parser(build_parser(), operator_words())
    helps = {"": parser.format_help()}
    helps |= {name: sub.format_help() for name, sub in subparsers(parser).items()}
    assert {"serve", "prepare-dailies", "solve"} <= set(helps)
    for name, text in helps.items():
        assert text.startswith("использование: "), name
        assert "параметры:" in text and "options:" not in text, name
        for english in ("[default:", "(env ", "show this help", "positional arguments"):
            assert english not in text, (name, english)
    assert "(переменная\xa0окружения PASYANS_HOST)" in helps["serve"]
