"""The package as users install it (``pip install .``, not editable) carries what the
server needs outside the repository: every package, the Lua scripts, the rules page
of every game (served by the ``rules`` op from ``server.rules``) and every file of the
web client (``web/``, served from ``server.web``); and an installed server reads every
game's rules page, and every page written in another language, from its own package
with importlib.resources, from any working directory.

One wheel is built for the module (building it is most of these tests' time)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from server.net.static import FILES
from server.patience import registry

ROOT = Path(__file__).resolve().parents[1]
PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
CHECK = """
import sys
from server.services import catalogue
assert not catalogue.DOCS.exists(), catalogue.DOCS  # no checkout to fall back on
for page in sys.argv[1:]:  # SLUG (English) or LANG/SLUG
    lang, _, slug = page.rpartition("/")
    sys.stdout.write(catalogue.rules_text(slug, lang or "en") or "MISSING")
    sys.stdout.write("\\0")
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "data"
        ),
    )
    # built by the locked setuptools in .venv (no isolated build fetching the newest)
    subprocess.run(
        [*PIP_WHEEL, "-w", str(tmp_path), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = tmp_path.glob("pasyans-*.whl")
    return built


def test_the_wheel_carries_every_package_and_every_rules_page(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for slug in registry.slugs():
        assert f"server/rules/{slug}.md" in names, slug
    for name in set(FILES.values()) | {"vendor/README"}:  # the web client (web/)
        assert f"server/web/{name}" in names, name
    packages = {
        str(p.parent.relative_to(ROOT))
        for top in ("server", "client", "protocol")
        for p in (ROOT / top).rglob("__init__.py")
    }
    for package in packages:
        assert f"{package}/__init__.py" in names, package
    assert any(n.startswith("server/store/") and n.endswith(".lua") for n in names) or not list(
        (ROOT / "server" / "store").glob("*.lua")
    )


def test_an_installed_server_serves_every_rules_page(wheel: Path, tmp_path: Path) -> None:
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
