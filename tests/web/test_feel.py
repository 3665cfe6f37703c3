"""A move feels like a card game (issue 48): a tap or a double-click sends a card to a
foundation that takes it — the first in order when several do (a two-deck game's ace,
Napoleon at St Helena: eight foundations take it) —, the safe moves go home by
themselves by default, and a move the rules refuse shakes the pile and lets the card
go."""

from __future__ import annotations

from typing import Any

import pytest

from server.patience import registry
from tests.support import ServerProcess
from tests.web.pages import opened
from tools.browser import press, sign_in

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

#: St Helena's deal 1: an ace on top of columns 7, 8 and 9, each taken by all eight
#: foundations (F1…F8) — checked with the engine below
ACES = ("st_helena", 1, ["C7", "C8", "C9"])

#: a deal by number, opened as the home screen's form opens it
DEAL = "async ([slug, seed]) => (await import('/session.mjs')).start(slug, 'deal', {seed})"


def pile(page: Any, pid: str) -> list[str | None]:
    cards: list[str | None] = page.evaluate(
        "(id) => window.pasyans.app.game.state.view.piles.find((p) => p.id === id).cards", pid
    )
    return cards


def settled(page: Any) -> int:
    page.wait_for_selector("section.game[data-busy='0']")
    return int(page.get_attribute("section.game", "data-seq"))


def test_an_ace_of_a_two_deck_game_goes_home_at_a_tap_or_a_double_click(page: Any) -> None:
    slug, seed, columns = ACES
    game = registry.get(slug)
    state = game.deal(seed)
    tops = {p["id"]: p["cards"][-1] for p in game.view(state)["piles"] if p["cards"]}
    wire = [m.to_wire() for m in game.legal_moves(state)]
    for column in columns:  # an ace, and every foundation takes it
        assert str(tops[column]).startswith("A")
        assert {m["to"] for m in wire if m.get("from") == column} == {f"F{i}" for i in range(1, 9)}
    sign_in(page, "Туз")
    page.evaluate("() => localStorage.setItem('pasyans.safeAfter', '0')")  # one move at a time
    page.evaluate(DEAL, [slug, seed])
    page.wait_for_selector("section.game[data-status=playing] .table")
    seq = settled(page)
    ace = pile(page, columns[0])[-1]
    page.locator(f"[data-pile={columns[0]}] [data-index]").last.click()  # one tap
    page.wait_for_selector(f"section.game[data-seq='{seq + 1}']")
    assert pile(page, "F1") == [ace]  # the first foundation of eight
    assert page.evaluate("() => window.pasyans.app.game.source") is None
    ace = pile(page, columns[1])[-1]
    page.locator(f"[data-pile={columns[1]}] [data-index]").last.dblclick()
    page.wait_for_selector(f"section.game[data-seq='{seq + 2}']")
    assert pile(page, "F2") == [ace]  # the first that takes it now


def test_safe_moves_go_home_by_themselves_by_default(page: Any) -> None:
    """Nothing set: after a move the server's safe moves follow by themselves — the
    page then has nothing left that `auto` would play."""
    slug, seed, columns = ACES
    sign_in(page, "Сам")
    page.evaluate(DEAL, [slug, seed])
    page.wait_for_selector("section.game[data-status=playing] .table")
    seq = settled(page)
    page.locator(f"[data-pile={columns[0]}] [data-index]").last.click()
    page.wait_for_function(
        "(seq) => Number(document.querySelector('section.game').dataset.seq) > seq + 1", arg=seq
    )
    after = settled(page)
    homes = sum(len(pile(page, f"F{i}")) for i in range(1, 9))
    assert homes >= 3  # the three aces at least: safe, sent home without a click
    left = page.evaluate(
        """async () => { const g = window.pasyans.app.game;
             const r = await window.pasyans.conn.call('auto', {game_id: g.state.game_id,
               seq: g.state.seq});
             return (r.played || []).length; }"""
    )
    assert left == 0, f"{left} safe moves were left at seq {after}"


def test_a_refused_drop_shakes_and_lets_the_card_go(page: Any) -> None:
    slug, seed, _ = ACES
    sign_in(page, "Тряска")
    page.evaluate("() => localStorage.setItem('pasyans.tapHome', '0')")  # a tap chooses
    page.evaluate(DEAL, [slug, seed])
    page.wait_for_selector("section.game[data-status=playing] .table")
    seq = settled(page)
    legal = page.evaluate("() => window.pasyans.app.game.state.legal")
    source = next(m["from"] for m in legal if "from" in m)
    targets = {m["to"] for m in legal if m.get("from") == source}
    piles = page.evaluate("() => window.pasyans.app.game.state.view.piles.map((p) => p.id)")
    wrong = next(p for p in piles if p not in targets and p != source and p.startswith("C"))
    page.locator(f"[data-pile={source}] [data-index]").last.click()
    assert page.evaluate("() => window.pasyans.app.game.source") is not None
    page.locator(f"[data-pile={wrong}]").click(position={"x": 5, "y": 5})
    page.wait_for_selector(f"[data-pile={source}].shake")
    assert page.evaluate("() => window.pasyans.app.game.source") is None  # let go
    page.wait_for_selector(f"[data-pile={source}]:not(.shake)")  # and it stops
    assert settled(page) == seq


def test_restart_this_deal_deals_the_same_cards_again(page: Any) -> None:
    """A practice deal, a move played, then More → Restart this deal: a new game on
    the same deal, at its start."""
    sign_in(page, "Заново")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .table")
    first = page.evaluate("() => window.pasyans.app.game.state")
    opening = {p["id"]: p["cards"] for p in first["view"]["piles"]}
    move = next(m for m in first["legal"] if "from" in m)
    page.evaluate("(m) => window.pasyans.app.game.pick(m)", move)
    page.wait_for_function(  # the move (and the safe moves after it) answered
        "(seq) => { const g = window.pasyans.app.game; return g.state.seq > seq && !g.inflight"
        " && !g.queue.length; }",
        arg=first["seq"],
    )
    press(page, "restart")
    page.wait_for_function(
        "(id) => { const g = window.pasyans.app.game; return g && g.state.game_id !== id; }",
        arg=first["game_id"],
    )
    again = page.evaluate("() => window.pasyans.app.game.state")
    assert again["mode"] == "deal" and again["moves"] == 0
    assert {p["id"]: p["cards"] for p in again["view"]["piles"]} == opening


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_a_games_how_to_shows_the_first_time_from_its_rules_and_is_skipped(
    browser: Any, web_server: ServerProcess, locale: str
) -> None:
    """How-tos on (as a player has them): Fifteen's first opening shows three steps
    taken from its rules page in the page's language — no pile code in them —; Skip
    closes it, and the next Fifteen opens without it."""
    with opened(browser, web_server, locale=locale) as page:
        page.evaluate("() => localStorage.setItem('pasyans.howTo', '1')")
        sign_in(page, "Новенький")
        page.click("[data-game=fifteen] [data-do=practice]")
        page.wait_for_selector("[data-howto=fifteen] ol li")
        steps = page.locator("[data-howto=fifteen] ol li").all_text_contents()
        assert len(steps) == 3 and all(len(s) > 20 for s in steps)
        assert not any("`" in s or "FA-" in s for s in steps)
        cyrillic = sum("а" <= ch.lower() <= "я" for ch in "".join(steps))
        assert (cyrillic > 50) == locale.startswith("ru"), steps
        page.click("[data-do=howto-skip]")
        page.wait_for_selector("[data-howto]", state="detached")
        page.click("[data-do=home]")
        page.click("[data-game=fifteen] [data-do=practice]")
        page.wait_for_selector("section.game[data-status=playing] .table")
        assert page.locator("[data-howto]").count() == 0


def test_an_undo_refused_says_why_and_no_card_is_said_back(page: Any) -> None:
    """Undo at the deal: the server's reason alone ("Nothing to undo."), never "— the
    card is back" when no card moved."""
    sign_in(page, "Отмена")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .table")
    page.click("[data-do=undo]")
    page.wait_for_function("() => document.querySelector('.message').textContent.trim() !== ''")
    said = page.inner_text(".message")
    assert "undo" in said.lower() and "card is back" not in said, said


def test_the_felt_chosen_colours_the_table(page: Any) -> None:
    sign_in(page, "Сукно")
    page.goto(page.url.split("#")[0] + "#account")
    page.check("[data-field=felt-wine]")
    page.goto(page.url.split("#")[0] + "#home")
    page.click("[data-game=crescent] [data-do=practice]")
    page.wait_for_selector("section.game[data-status=playing] .table")
    colour = page.evaluate(
        "() => getComputedStyle(document.querySelector('section.game .board')).backgroundColor"
    )
    assert colour == "rgb(107, 34, 52)"  # #6b2234, style.css :root.felt-wine
