"""A Russian-speaking player meets no English word (issue 38): the commands' output and
errors, and the terminal client's screens at 80×24, in Russian — save what stays as it
is in any language: the commands and codes one types, addresses, names, key names, and
a game's English title beside its Russian one."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence

import pytest

from client import config, lang
from client.app import PasyansApp
from client.cli import main
from client.launch import Launch
from protocol.messages import Mode
from server.patience import registry

from .conftest import fresh_name
from .test_80x24 import SMALL, at_home, screen_text
from .test_app import on_board, until

#: words that stay Latin in Russian: the brand, the time zone, key names
ALLOWED = frozenset(
    {"pasyans", "UTC", "Esc", "esc", "Enter", "Tab", "Ctrl", "Home", "End", "Space", "PgUp", "PgDn"}
    | {"ws", "wss", "http", "https", "Markdown", "ID", "URL"}
)
#: what one types or copies, in any language
_TYPED = (
    re.compile(r"`[^`]*`"),  # a command or a pile id, quoted
    re.compile(r"[A-Za-z0-9_-]{20,}"),  # a token
    re.compile(r"\b[0-9a-f]{12,}\b"),  # a commitment
    re.compile(r"\bt[0-9a-f]{12}\b"),  # another test's player (fresh_name) on a shared board
    re.compile(r"'[^']*'"),  # what the player typed, or may type
    re.compile(r"\b(?:wss?|https?)://\S+"),  # an address
    re.compile(r"(?:~|/)[\w./-]+"),  # a path
    re.compile(r"\bpasyans(?:-server)?(?: [a-z_-]+){0,2}"),  # a command
    re.compile(r"--[a-z-]+"),  # an option
    re.compile(r"\b[A-Z0-9_-]*[A-Z0-9][A-Z0-9_-]*\b"),  # a code, an id, a metavar, a card
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # a slug
)


def english_titles() -> set[str]:
    """Each game's English title beside its Russian one, and its slug (one types it)."""
    titles = {w for game in registry.games() for w in re.findall(r"[A-Za-z]+", game.title_en)}
    return titles | set(registry.slugs())


def english(text: str, *also: str) -> list[str]:
    """The English words of ``text`` a Russian player should not meet (``also``:
    names in it, such as the player's)."""
    for name in also:
        text = text.replace(name, " ")
    for typed in _TYPED:
        text = typed.sub(" ", text)
    words = set(re.findall(r"[A-Za-z]{2,}", text))
    return sorted(words - ALLOWED - english_titles())


@pytest.fixture
def russian(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(lang.ENV, "ru")
    # main() says argparse's own words in the language in use: put English back after
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)  # type: ignore[attr-defined]
    lang.use("ru")
    yield
    lang.use("en")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    main(list(argv))
    out, err = capsys.readouterr()
    return out + err


def test_the_check_finds_english() -> None:
    assert english("ваш ход: `pasyans play crescent` на ws://x:1/ws, код K7QX2M") == []
    assert english("Полумесяц — Crescent · сдача 7") == []
    assert english("your move, Маша") == ["move", "your"]


@pytest.mark.usefixtures("russian")
def test_the_commands_speak_russian(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    name, friend = fresh_name(), fresh_name()
    said: list[tuple[Sequence[str], str]] = []

    def say(*argv: str) -> None:
        said.append((argv, run(capsys, *argv)))

    say("register", friend)
    say("register", name, "--another")
    say("whoami")
    say("switch", "nobody-here")
    say("games")
    say("daily")
    say("leaderboard", "crescent")
    say("rules", "crescent")
    say("friend", "add", friend)
    say("friends")
    say("history")
    say("stats")
    say("challenges")
    say("share")
    say("replay", "crescent", "--player", name)
    say("login", "not-a-token")
    say("lang")
    for argv in (["play", "crescent", "--deal", "-3"], ["race", "join", "!!"], ["nonsense"]):
        with pytest.raises(SystemExit):
            main(argv)
        said.append((argv, "".join(capsys.readouterr())))
    assert all(text.strip() for _, text in said)
    found = [(argv, english(text, name, friend), text) for argv, text in said]
    found = [f for f in found if f[1]]
    assert not found, "\n\n".join(f"{' '.join(a)}: {w}\n{t}" for a, w, t in found)


@pytest.mark.usefixtures("russian")
async def test_the_home_screen_and_its_screens_speak_russian(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: at_home(pilot))
        await pilot.pause()
        shown = {"home": screen_text(pilot)}
        for key, what in (
            ("?", "rules"),
            ("l", "leaderboard"),
            ("h", "history"),
            ("s", "stats"),
            ("f", "friends"),
            ("i", "inbox"),
            ("c", "calendar"),
        ):
            home = app.screen
            await pilot.press("question_mark" if key == "?" else key)
            await until(pilot, lambda: app.screen is not home)  # noqa: B023 (awaited here)
            if key == "?":  # the page comes from the server: Crescent's, in Russian
                await until(pilot, lambda: "Раскладка" in screen_text(pilot))
            await pilot.pause()
            shown[what] = screen_text(pilot)
            await pilot.press("escape" if key == "?" else "q")
            await until(pilot, lambda: app.screen is home)  # noqa: B023 (awaited here)
    for what, text in shown.items():
        assert english(text, account.player) == [], (what, text)


@pytest.mark.usefixtures("russian")
@pytest.mark.parametrize("slug", ["crescent", "hand_reserve", "carpet", "travellers"])
async def test_a_board_speaks_russian(
    server_url: str, account: config.Credentials, slug: str
) -> None:
    app = PasyansApp(server_url, launch=Launch(game=slug, mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SMALL) as pilot:
        await on_board(pilot)
        await pilot.pause()
        shown = {"board": screen_text(pilot)}
        await pilot.press("x")  # every action in words
        await pilot.pause()
        shown["actions"] = screen_text(pilot)
        await pilot.press("escape")
        await pilot.press("r")  # give up? asks first
        await pilot.pause()
        shown["resign"] = screen_text(pilot)
        await pilot.press("y")
        await until(pilot, lambda: "board" not in type(app.screen).__name__.lower())
        await pilot.pause()
        shown["end"] = screen_text(pilot)
    for what, text in shown.items():
        assert english(text, account.player) == [], (slug, what, text)
