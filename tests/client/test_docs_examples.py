"""The shell examples of docs/client.md (and README.md) run as written: every
``printf … | pasyans …`` line of a ``sh`` block is run by the shell against the
test server, as a signed-in player, and must end with status 0 and no refused
line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from client import config

from .conftest import ROOT

DOCS = [ROOT / "docs" / "client.md", ROOT / "README.md"]
SH_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)


def examples(path: Path) -> list[str]:
    """The command lines that pipe moves into the client."""
    found = []
    for block in SH_BLOCK.findall(path.read_text(encoding="utf-8")):
        for line in block.splitlines():
            command = line.split("  #", 1)[0].strip()
            if re.search(r"\|\s*(\.venv/bin/)?pasyans ", command):
                found.append(command)
    return found


def test_the_client_docs_have_an_example() -> None:
    assert examples(DOCS[0]), "docs/client.md lost its script example"


@pytest.mark.parametrize("command", [c for path in DOCS if path.exists() for c in examples(path)])
def test_a_documented_example_runs(
    command: str, server_url: str, account: config.Credentials, config_dir: Path
) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        config.SERVER_ENV: server_url,
        config.CONFIG_ENV: str(config_dir),
    }
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "\nerror: " not in done.stdout


def test_game_titles_in_the_docs_are_the_servers() -> None:
    """README's table of games lists the registry's games in its order, and it and
    every rules page's heading give each game the titles of the server's registry
    (`pasyans games`); wherever the docs pair a Russian title with an English one, the
    English is the registry's."""
    from server.patience import registry

    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(
            r"^\| `([a-z_]+)` \| ([^|]+?) \| ([^|]+?) \| \d \|$",
            (ROOT / "README.md").read_text(encoding="utf-8"),
            re.M,
        )
    }
    assert list(rows) == registry.slugs()
    english = {g.title_ru: g.title_en for g in registry.games()}
    for game in registry.games():
        assert rows[game.slug] == (game.title_ru, game.title_en), game.slug
        page = (ROOT / "docs" / "games" / f"{game.slug}.md").read_text(encoding="utf-8")
        assert page.startswith(f"# {game.title_en} — {game.title_ru}\n"), game.slug
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for ru, en in english.items():
            for m in re.finditer(re.escape(ru) + r"\s*(?:—|\(|·)\s*([A-Z][A-Za-z ,']+)", text):
                assert m.group(1).strip().startswith(en), (path.name, ru, m.group(1))
