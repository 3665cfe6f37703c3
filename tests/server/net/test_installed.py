"""An installed server (the wheel, not this checkout) reads every game's rules page,
and every page written in another language, from its own package with
importlib.resources, from any working directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from server.patience import registry

ROOT = Path(__file__).resolve().parents[3]
CHECK = """
import sys
from server.services import catalogue
assert not catalogue.DOCS.exists(), catalogue.DOCS  # no checkout to fall back on
for page in sys.argv[1:]:  # SLUG (English) or LANG/SLUG
    lang, _, slug = page.rpartition("/")
    sys.stdout.write(catalogue.rules_text(slug, lang or "en") or "MISSING")
    sys.stdout.write("\\0")
"""


def test_an_installed_server_serves_every_rules_page(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "build",
            "*.egg-info",
            "__pycache__",
            ".*_cache",
            ".hypothesis",
            "data",
            "tests",
            "bench",
            "deploy",
        ),
    )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("pasyans-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)  # what pip install puts in site-packages
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    games = ROOT / "docs" / "games"
    slugs = registry.slugs()
    translated = [f"{p.parent.name}/{p.stem}" for p in sorted(games.glob("*/*.md"))]
    # -I: no checkout on the path (the dependencies come from this interpreter's site)
    script = f"import sys; sys.path.insert(0, {str(site)!r})\n" + CHECK
    out = subprocess.run(
        [sys.executable, "-I", "-c", script, *slugs, *translated],
        cwd=elsewhere,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    pages = out.split("\0")[:-1]
    assert len(pages) == len(slugs) + len(translated) and translated
    for name, page in zip([*slugs, *translated], pages, strict=True):
        assert page == (games / f"{name}.md").read_text(encoding="utf-8"), name
