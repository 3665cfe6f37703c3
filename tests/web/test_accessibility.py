"""axe-core (vendored for the tests: tests/web/vendor) on every screen of the web client
but the boards (test_boards.py audits each game's): sign-in, home, a game's end, rules,
leaderboards, replay, stats, history, friends, inbox, calendar, account, a race's lobby
and its board, a race watched, a challenge. Not one critical or serious violation, in
light and (colour contrast) dark. Its rule of a name that holds the visible text
(label-content-name-mismatch, off by default in axe 4) is on: the piles are buttons
named by what they show.

Issue 38 in the browser: the page in Russian and in English, from the one catalogue.

In Russian (a browser that asks for it) every screen a player walks through — sign-in,
home, boards, the end of a game, leaderboards, history, stats, friends, inbox,
calendar, rules, account, a race's lobby and board, a challenge — shows no English word (nor a
protocol string: they are Latin), save what is not a word: the brand, card and pile
codes, keys, the players' names, codes and hashes (``<code>``); and text marked
``lang="en"`` (the games' English titles beside the Russian ones, an English title or
book a Russian rules page names). In English no Cyrillic shows but in ``lang="ru"``
(the Russian titles, the seed's words a rules page quotes). The setting is remembered
across a reload.

(One module, one browser and one server: both walk the same screens.)"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import uuid
from collections.abc import Iterable
from typing import Any

import pytest

from tests.support import ServerProcess, connect
from tests.web.pages import CONTRAST, PHONE, Audit, base, opened
from tools.browser import press, sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


#: the text in Russian under ``root`` with no lang="ru" around it (the page is English:
#: a screen reader would read Russian with English sounds)
UNMARKED_RUSSIAN = """(root) => { const out = [];
  const walk = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    if (/[\u0400-\u04ff]/.test(n.textContent) && !n.parentElement.closest('[lang=ru]'))
      out.push(n.textContent.trim().slice(0, 60));
  return out; }"""


def in_thread(coroutine: Any) -> Any:
    """Run ``coroutine`` on its own event loop (Playwright's runs in this thread)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def a_race_to_watch(url: str) -> tuple[str, str]:
    """Two players race on Crescent; the race's code, and one of them."""
    async with connect(url) as a, connect(url) as b:
        name = f"Аня{uuid.uuid4().int % 100_000}"
        await a.register(name)
        await b.register(f"Боря{uuid.uuid4().int % 100_000}")
        race = (await a.call("race_create", game="crescent"))["race"]
        await b.call("race_join", code=race["code"])
        await a.call("race_start", race_id=race["race_id"])
        await a.next_event("race_started")
        return str(race["code"]), name


async def join(url: str, code: str) -> str:
    async with connect(url) as b:
        name = f"Гость{uuid.uuid4().int % 100_000}"
        await b.register(name)
        await b.call("race_join", code=code)
        return name


def test_every_screen_has_no_critical_or_serious_violation(
    browser: Any, web_server: ServerProcess
) -> None:
    watched, racer = in_thread(a_race_to_watch(web_server.url))
    with opened(browser, web_server) as page:
        audit = Audit(page)
        page.on("dialog", lambda d: d.accept())
        audit("sign-in", "[data-field=name]")
        sign_in(page, "Доступ")
        audit("home", "[data-game=crescent] .cert:not(:empty)")
        page.click("[data-game=crescent] [data-do=daily]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        press(page, "rules")
        audit("rules", "dialog[open] .rules[data-loaded='1']")
        assert page.evaluate(UNMARKED_RUSSIAN, "dialog[open] .rules") == []
        assert page.evaluate(UNMARKED_RUSSIAN, "section.game header.game-head") == []
        page.keyboard.press("Escape")
        press(page, "resign")
        page.click("aside.end [data-do=challenge-make]")
        audit("the end of a game", "aside.end [data-challenge-link]")
        gid = page.get_attribute("section.game", "data-game-id")
        code = page.get_attribute("aside.end [data-challenge-link]", "data-challenge-link")
        assert code
        page.goto(base(web_server) + "#" + code.split("#", 1)[1])
        audit("challenge", "[data-challenge]")
        page.goto(f"{base(web_server)}#leaderboard/crescent")
        audit("leaderboard", "table.entries tr[data-player]")
        page.goto(f"{base(web_server)}#replay/{gid}")
        audit("replay", ".replay[data-step='0'] .table")
        page.goto(f"{base(web_server)}#stats")
        audit("stats", "section.stats table")
        page.goto(f"{base(web_server)}#history")
        audit("history", "[data-history]")
        page.goto(f"{base(web_server)}#friends")
        page.fill("[data-field=friend]", racer)
        page.click("[data-do=friend-add]")
        audit("friends", "[data-friend]")
        page.goto(f"{base(web_server)}#inbox")
        audit("inbox", "section.inbox")
        page.goto(f"{base(web_server)}#calendar/crescent")
        audit("calendar", "section.calendar .month-grid [data-day]")
        page.goto(f"{base(web_server)}#account")
        audit("account", "section.account")
        page.goto(f"{base(web_server)}#watch/{watched}")
        audit("a race watched", "[data-watch] [data-member-board]")
        page.goto(f"{base(web_server)}#home")
        page.click("[data-game=crescent] [data-do=race]")
        audit("a race's lobby", "[data-race-link]")
        link = page.get_attribute("[data-race-link]", "data-race-link") or ""
        in_thread(join(web_server.url, link.rsplit("/", 1)[1]))
        page.wait_for_function("() => document.querySelectorAll('[data-member]').length === 2")
        page.click("[data-do=race-start]")
        audit("a race's board", "section.game[data-status=playing] .race-panel")
    assert audit.screens == 16
    assert not audit.bad, "\n".join(audit.bad)


def test_colour_contrast_in_the_dark(browser: Any, web_server: ServerProcess) -> None:
    with opened(browser, web_server, color_scheme="dark") as page:
        audit = Audit(page, CONTRAST)
        page.on("dialog", lambda d: d.accept())
        audit("sign-in", "[data-field=name]")
        sign_in(page, "Тьма")
        audit("home", "[data-game=crescent] .cert:not(:empty)")
        for slug in ("crescent", "travellers", "hand_reserve"):
            page.click(f"[data-game={slug}] [data-do=practice]")
            audit(f"the board of {slug}", "section.game[data-status=playing] .table")
            page.click("[data-do=home]")
        page.click("[data-game=short] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        press(page, "resign")
        audit("the end of a game", "aside.end")
        page.goto(f"{base(web_server)}#leaderboard/crescent")
        audit("leaderboard", "table.entries")
    assert not audit.bad, "\n".join(audit.bad)


# -- issue 38: the page in Russian and in English ---------------------------------


#: every visible text of the page, and its visible elements' aria-label, title and
#: placeholder, but inside an element marked with another language than the page's
SHOWN = """() => {
  const page = document.documentElement.lang;
  const out = [];
  const other = (el) => {
    const marked = el.closest('[lang]');
    return marked && marked.lang !== page;
  };
  const seen = (el) => el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
  // codes, hashes and links (<code>), keys
  const skipped = (el) => el.closest('code, kbd');
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || skipped(el)) continue;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName)) continue;
    if (el.tagName !== 'OPTION' && !seen(el)) continue;
    if (!other(el)) out.push(node.textContent);
  }
  const named = ['aria-label', 'title', 'placeholder'];
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (!seen(el) || other(el) || skipped(el)) continue;
    for (const name of named) if (el.getAttribute(name)) out.push(el.getAttribute(name));
  }
  return out;
}"""

#: the players' names the page shows (data-player)
PLAYERS = "() => [...document.querySelectorAll('[data-player]')].map((e) => e.dataset.player)"

#: Latin that is no English word: the brand, time zone, key names, an example name
NOT_WORDS = {"pasyans", "UTC", "Tab", "Enter", "Esc", "alice"}
#: a pile's or a label's code: "FA", "NW" (capitals, no word)
CODE = re.compile(r"[A-Z]{1,3}")
_URL = re.compile(r"\b(?:https?|wss?)://\S+")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]+")


def latin_words(texts: Iterable[str], allowed: set[str]) -> set[str]:
    """The Latin words of ``texts`` that may be English: not a card or pile code (one
    letter, or letters with digits: "K", "C1"), a hash, a code or a name we know."""
    found: set[str] = set()
    for text in texts:
        for word in _LATIN.findall(_URL.sub(" ", text)):
            if (
                len(word) == 1
                or re.search(r"\d", word)
                or word in NOT_WORDS | allowed
                or CODE.fullmatch(word)
                or (word.isupper() and any(word in known for known in allowed))  # a code cut
            ):
                continue
            found.add(word)
    return found


def cyrillic_words(texts: Iterable[str], allowed: set[str]) -> set[str]:
    found: set[str] = set()
    for text in texts:
        for word in _CYRILLIC.findall(text):
            if not any(word in name for name in allowed):
                found.add(word)
    return found


class Walk:
    """A page's screens looked at one after the other: what each shows (and every
    confirm the page asks) that is not in the page's language."""

    def __init__(self, page: Any, foreign: Any, allowed: set[str]) -> None:
        self.page = page
        self.foreign = foreign
        self.allowed = allowed
        self.bad: dict[str, set[str]] = {}
        page.on("dialog", self.on_dialog)

    def on_dialog(self, dialog: Any) -> None:
        words = self.foreign([dialog.message], self.allowed)
        if words:
            self.bad.setdefault("dialog", set()).update(words)
        dialog.accept()

    def __call__(self, screen: str, ready: str) -> None:
        self.page.wait_for_selector(ready)
        # names are no words: those of the players the module's other tests made too
        # (a leaderboard's rows), each marked data-player
        # both read at once: a row drawn between two reads would be a word, not a name
        names, shown = self.page.evaluate(f"() => [({PLAYERS})(), ({SHOWN})()]")
        self.allowed.update(names)
        words = self.foreign(shown, self.allowed)
        if words:
            self.bad[screen] = words


async def news_for(url: str, name: str) -> tuple[str, set[str]]:
    """Another player invites ``name`` to a race and to a challenge (the inbox has
    both): their name and the codes."""
    async with connect(url) as other:
        sender = f"Боря{uuid.uuid4().int % 100_000}"
        await other.register(sender)
        race = (await other.call("race_create", game="crescent"))["race"]
        await other.call("invite", name=name, race=race["code"])
        challenge = (await other.call("challenge_create", game="parade"))["challenge"]
        await other.call("invite", name=name, challenge=challenge["code"])
        return sender, {race["code"], challenge["code"]}


def walk_every_screen(page: Any, server: ServerProcess, look: Walk) -> None:
    """Sign in, then every screen a player meets (``look`` at each)."""
    url = base(server)
    look("sign-in", "[data-field=name]")
    name = sign_in(page, "Маша")
    look.allowed.add(name)
    # the games' Russian titles are names, in English too (a share text's plain line)
    look.allowed.update(
        page.evaluate("() => Object.values(window.pasyans.app.titles).map((t) => t.title_ru)")
    )
    look("home", "[data-game=crescent] .cert:not(:empty)")
    for slug in ("crescent", "hand_reserve", "carpet", "hemispheres", "fifteen"):
        page.goto(f"{url}#home")
        page.click(f"[data-game={slug}] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        page.evaluate("() => window.pasyans.app.game.askSafe()")
        page.click("[data-do=more]")
        look(f"board {slug}", "section.game .more[open]")
        page.click("[data-do=rules]")
        look(f"rules {slug}", ".rules[data-loaded='1']")
        page.click("[data-do=rules-close]")
    page.click("[data-do=more]")
    page.click("[data-do=resign]")
    look("end panel", "aside.end")
    gid = page.get_attribute("section.game", "data-game-id")
    page.click("[data-do=challenge-make]")
    page.wait_for_selector("[data-challenge-link]")
    link = page.get_attribute("[data-challenge-link]", "data-challenge-link")
    code = link.rsplit("/", 1)[-1]
    look.allowed.add(code)
    page.goto(f"{url}#challenge/{code}")
    look("challenge", "section.challenge")
    page.goto(f"{url}#replay/{gid}")
    look("replay", ".replay[data-step='0'] .table")
    sender, codes = in_thread(news_for(server.url, name))
    look.allowed.update({sender, *codes})
    page.goto(f"{url}#friends")
    page.fill("[data-field=friend]", sender)
    page.click("[data-do=friend-add]")
    page.wait_for_selector(f"[data-friend='{sender}']")
    watched, racer = in_thread(a_race_to_watch(server.url))
    look.allowed.update({watched, racer})
    page.goto(f"{url}#watch/{watched}")
    look("a race watched", "[data-watch] [data-member-board]")
    for screen, ready in (
        ("leaderboard/crescent", "table.entries, section.leaderboard p"),
        ("history", "tr[data-history]"),
        ("stats", "section.stats table"),
        ("friends", "[data-friend]"),
        ("inbox", "[data-item=invite]"),
        ("calendar/crescent", "section.calendar .month-grid [data-day]"),
        ("account", "[data-field=lang]"),
    ):
        page.goto(f"{url}#{screen}")
        look(screen, ready)
    page.goto(f"{url}#home")
    page.click("[data-game=crescent] [data-do=race]")
    page.wait_for_selector("[data-race-link]")
    look.allowed.add(page.evaluate("() => window.pasyans.app.race.code"))
    look("race lobby", "[data-race-status=lobby]")
    page.click("[data-do=race-start]")
    look("race board", "section.game[data-status=playing] .race-panel[data-race-status=running]")


def test_in_russian_no_english_word_shows(browser: Any, web_server: ServerProcess) -> None:
    with opened(browser, web_server, viewport=PHONE, locale="ru-RU") as page:
        assert page.evaluate("() => document.documentElement.lang") == "ru"
        look = Walk(page, latin_words, set())
        walk_every_screen(page, web_server, look)
        assert not look.bad, sorted((k, sorted(v)) for k, v in look.bad.items())


def test_in_english_no_russian_word_shows_but_the_titles(
    browser: Any, web_server: ServerProcess
) -> None:
    with opened(browser, web_server, viewport=PHONE, locale="en-GB") as page:
        assert page.evaluate("() => document.documentElement.lang") == "en"
        look = Walk(page, cyrillic_words, {"Маша"})
        walk_every_screen(page, web_server, look)
        assert not look.bad, sorted((k, sorted(v)) for k, v in look.bad.items())


def test_the_language_setting_is_remembered(browser: Any, web_server: ServerProcess) -> None:
    with opened(browser, web_server, viewport=PHONE, locale="en-US") as page:
        page.wait_for_selector("[data-field=lang] [data-lang=ru]")
        start = page.inner_text("[data-do=register]")
        # a new player switches before they have an account
        page.check("[data-field=lang] [data-lang=ru]")
        page.wait_for_function("() => document.documentElement.lang === 'ru'")
        page.wait_for_selector("[data-do=register]")
        assert page.inner_text("[data-do=register]") == "Начать играть" != start
        assert page.get_attribute("[data-field=lang] [data-lang=en] + span", "lang") == "en"
        sign_in(page, "Лена")
        page.reload()
        page.wait_for_selector("[data-game=crescent]")
        assert page.evaluate("() => document.documentElement.lang") == "ru"
        assert page.inner_text("a[href='#home'][aria-current]") == "Главная"
        # and back to English from the account screen
        page.goto(f"{base(web_server)}#account")
        page.check("[data-field=lang] [data-lang=en]")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.wait_for_selector("[data-field=lang]")
        page.reload()
        page.wait_for_selector("[data-field=lang]")
        assert page.inner_text("section.account h1").startswith("Account")
