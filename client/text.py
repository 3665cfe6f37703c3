"""Plain-text output: the board of script mode and the CLI's tables.

Pure functions of what the server sent; nothing here talks to the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .drawing import draw
from .lang import N_, _, current, ngettext
from .notation import format_move

Titles = Mapping[str, Mapping[str, Any]]


def clock(ms: int | float | None) -> str:
    """``83_000`` → ``"1:23"``; hours when needed."""
    seconds = int((ms or 0) // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02}:{s:02}" if h else f"{m}:{s:02}"


#: the longest pause between two changes a game's time counts (the server's --idle-gap
#: by default): how long the clock runs on when an older server says no ``idle_left_ms``
IDLE_GAP_MS = 60_000


def running_time(state: Mapping[str, Any], since_ms: int) -> int:
    """A game's time ``since_ms`` after its state was received: the server's
    ``time_ms``, run on by at most ``idle_left_ms`` (what the pause it already counts
    leaves of the idle gap) while the game is in play. So the clock shows what the next
    move counts: it stops when the player is away, and never runs backwards."""
    ms = int(state.get("time_ms") or 0)
    if state.get("status") != "playing":
        return ms
    left = state.get("idle_left_ms")
    left = IDLE_GAP_MS if left is None else int(left)
    return ms + max(0, min(since_ms, left))


def title_in(slug: str, titles: Titles | None, lang: str) -> str:
    """A game's title in ``lang`` (``ru`` or ``en``): the other language's when the
    catalogue has none in it, the slug only without a catalogue."""
    entry = (titles or {}).get(slug) or {}
    ru, en = str(entry.get("title_ru") or ""), str(entry.get("title_en") or "")
    return (ru or en if lang == "ru" else en or ru) or slug


def title(slug: str, titles: Titles | None = None) -> str:
    """A game's title where there is room: in Russian, ``Полумесяц`` (no English
    beside it); in English, ``Crescent — Полумесяц`` (the game's own name after
    the English one)."""
    if current().lang == "ru":
        return title_in(slug, titles, "ru")
    en, ru = title_in(slug, titles, "en"), title_in(slug, titles, "ru")
    return en if ru == en else f"{en} — {ru}"


def game_name(slug: str, titles: Titles | None = None) -> str:
    """A game's one name in the player's language: ``Полумесяц`` / ``Crescent``."""
    return title_in(slug, titles, current().lang)


def short_title(slug: str, titles: Titles | None = None, most: int = 24) -> str:
    """A game's name where a column is narrow: its name in the player's language
    (Russian mode shows Russian titles, long ones too: the column wraps them)."""
    del most  # a narrow column wraps a long name (history), never another language's
    return game_name(slug, titles)


def mode_and_deal(state: Mapping[str, Any]) -> list[str]:
    """A game's mode and deal in words for a title: ``daily``, ``commitment 3f2a…``;
    a chosen deal says "deal" once (``deal 7``, not ``deal · deal 7``)."""
    mode = str(state.get("mode") or "")
    deal = deal_text(state)
    if mode == "deal" and (state.get("deal") or {}).get("seed") is not None:
        return [deal]
    said = _(MODE_WORDS[mode]) if mode in MODE_WORDS else mode
    return [part for part in (said, deal) if part]


def deal_text(state: Mapping[str, Any]) -> str:
    deal = state.get("deal") or {}
    if deal.get("seed") is not None:
        return _("deal {seed}", seed=deal["seed"])
    if deal.get("commitment"):
        return _("commitment {commitment}…", commitment=str(deal["commitment"])[:12])
    return ""


#: why a game was lost (the server's ``out``; none: no move was left), in words: the
#: same on the board, the end screen, the race panel and result, history and replay
OUT_WORDS = {
    "resigned": N_("resigned"),
    "timed_out": N_("timed out"),
    "dropped": N_("dropped"),
    "ended": N_("race ended"),
    "day_over": N_("day over"),
}
#: the same, as the sentence that ends a game
OUT_SENTENCES = {
    "resigned": N_("You resigned."),
    "timed_out": N_("You were away too long: the game was given up for you."),
    "dropped": N_("The race's creator dropped you while you were away: game over."),
    "ended": N_("The race's creator ended the race: game over."),
    "day_over": N_("The day is over (UTC): its races ended at midnight."),
}


def lost_why(summary: Mapping[str, Any], resigned: bool = False) -> str:
    """Why a lost game (a state, summary, replay or race row) ended, in words."""
    out = summary.get("out")
    if out:
        return _(OUT_WORDS.get(str(out), str(out)))
    return _("resigned") if resigned else _("no move left")


def outcome(state: Mapping[str, Any], resigned: bool = False) -> str:
    """The game's status, and for a lost game why (the server's ``out``; ``resigned``
    when this client resigned it and the server did not say; else no move was left)."""
    status = str(state.get("status", ""))
    if status == "lost":
        return _("lost ({why})", why=lost_why(state, resigned))
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


#: a game's status (the server's ``status``), in words
STATUS_WORDS = {"playing": N_("playing"), "won": N_("won"), "lost": N_("lost")}


#: what an assisted game (a hint, the solver's finish) is called wherever its result
#: shows: it never ranks (docs/protocol.md, "Fair play")
ASSISTED = N_("assisted")
#: the same, said whole where there is room
ASSISTED_LONG = N_("assisted (the solver helped: not ranked)")


def assisted(game: Mapping[str, Any]) -> bool:
    """Whether a game (a state, summary, replay or challenge result) had the solver's
    help, as the server says (``assisted``)."""
    return bool(game.get("assisted"))


def end_words(state: Mapping[str, Any], resigned: bool = False) -> str:
    """The end of a game in a sentence: "You won!", "You resigned.", "No move left."."""
    if state.get("status") == "won":
        return _("You won!")
    out = str(state.get("out") or ("resigned" if resigned else ""))
    return _(OUT_SENTENCES.get(out, N_("No move left: the game is over.")))


def status_line(
    state: Mapping[str, Any], elapsed_ms: int | None = None, *, resigned: bool = False
) -> str:
    ms = state.get("time_ms", 0) if elapsed_ms is None else elapsed_ms
    parts = [
        _("moves {moves}", moves=state.get("moves", 0)),
        _("time {clock}", clock=clock(ms)),
        _(
            "foundation {done}/{total}",
            done=state.get("foundation", 0),
            total=state.get("total", 0),
        ),
        outcome(state, resigned),
    ]
    return " · ".join(parts)


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value) or _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return "—" if value is None else str(value)


def info_line(state: Mapping[str, Any]) -> str:
    """The game's own counters (``view.info``) in words, e.g. ``shifts left 3``: each
    the keyed message ``info.KEY`` (a flag said only when set, a list by its length, a
    pile by its name), else the key's own words."""
    view = state.get("view") or {}
    piles = {str(p.get("id")): p for p in view.get("piles") or []}
    words, out = current(), []
    for key, value in (view.get("info") or {}).items():
        plain = f"{key.replace('_', ' ')} {_value(value)}"
        if value is None or value is False:
            continue
        if value is True:
            out.append(words.say(f"info.{key}", {}, plain))
        elif isinstance(value, list | tuple):
            out.append(words.say(f"info.{key}", {"n": len(value)}, plain))
        elif isinstance(value, str) and value in piles:
            out.append(words.say(f"info.{key}", {"value": words.pile(piles[value])}, plain))
        else:
            out.append(words.say(f"info.{key}", {"value": value}, plain))
    return " · ".join(out)


def legal_line(legal: Sequence[Mapping[str, Any]]) -> str:
    """The legal moves in script mode's notation (what a script types back)."""
    if not legal:
        return _("legal: none")
    return _("legal ({n}): ", n=len(legal)) + " · ".join(format_move(dict(m)) for m in legal)


def state_text(
    state: Mapping[str, Any], titles: Titles | None = None, *, resigned: bool = False
) -> str:
    """The whole position as plain text: title, board, counters, legal moves (or,
    once the game is over, how it ended)."""
    head = [title(str(state.get("game", "")), titles)]
    head.extend(mode_and_deal(state))
    lines = [" · ".join(head), ""]
    lines.append(draw((state.get("view") or {}).get("piles") or []).plain())
    lines.append("")
    lines.append(status_line(state, resigned=resigned))
    info = info_line(state)
    if info:
        lines.append(info)
    if state.get("status") == "playing":
        lines.append(legal_line(state.get("legal") or []))
    elif state.get("status"):
        lines.append(_("Game over. {words}", words=end_words(state, resigned)))
    return "\n".join(lines)


def table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> str:
    """Columns padded to their widest cell; numbers right-aligned."""
    cells = [[str(h) for h in header]] + [["" if c is None else str(c) for c in r] for r in rows]
    numeric = [
        all(isinstance(r[i], int | float) or r[i] is None for r in rows) and bool(rows)
        for i in range(len(header))
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    out = []
    for row in cells:
        out.append(
            "  ".join(
                c.rjust(w) if num else c.ljust(w)
                for c, w, num in zip(row, widths, numeric, strict=True)
            ).rstrip()
        )
    return "\n".join(out)


def par_text(entry: Mapping[str, Any]) -> str:
    """A daily's par: the shortest known winning line, or, for a daily the solver
    could not prove winnable, the most cards its best line founded; while it is being
    certified, how long that should still take."""
    if entry.get("preparing"):
        left = ready_in(entry["preparing"], short=True)
        return f"{_(PREPARING)} {left}" if left else _(PREPARING)
    if entry.get("par") is not None:
        return str(entry["par"])
    if entry.get("certified") is False and entry.get("best_founded") is not None:
        return _("unproven ({n})", n=entry["best_founded"])
    return NO_PAR


#: the par cell of a daily the server gives no par for (not known yet)
NO_PAR = "—"
#: the par cell of a daily the server is still certifying (ask again shortly)
PREPARING = N_("certifying…")


def ready_in(progress: Any, *, short: bool = False) -> str:
    """ "ready in about 40 s" from a daily's ``preparing.estimate_ms`` ("~40 s" when
    ``short``); "" when the server has no estimate yet."""
    if not isinstance(progress, Mapping) or progress.get("estimate_ms") is None:
        return ""
    seconds = max(1, -(-int(progress["estimate_ms"]) // 1000))
    if short:
        return "~" + (
            _("{n} s", n=seconds) if seconds < 90 else _("{n} min", n=round(seconds / 60))
        )
    return _("ready in about {span}", span=current().duration(seconds))


def certifying_text(progress: Any) -> str:
    """One daily being certified: "certifying a winnable deal (12 deals tried, ready
    in about 30 s)"."""
    facts = []
    if isinstance(progress, Mapping) and progress.get("tried"):
        tried = int(progress["tried"])
        facts.append(ngettext("{n} deal tried", "{n} deals tried", tried))
    if left := ready_in(progress):
        facts.append(left)
    said = _("certifying a winnable deal")
    return said + (f" ({', '.join(facts)})" if facts else "…")


def preparing(daily: Mapping[str, Any]) -> list[str]:
    """The games whose daily the server is still certifying winnable."""
    return [slug for slug, entry in (daily.get("games") or {}).items() if entry.get("preparing")]


def preparing_text(daily: Mapping[str, Any]) -> str:
    """One short line on the dailies being certified: how many are ready (not how
    many wait), and when the last should be (``preparing: {tried, elapsed_ms,
    estimate_ms}``; an older server sends ``true``)."""
    games = daily.get("games") or {}
    waiting = preparing(daily)
    estimates = [
        int(p["estimate_ms"])
        for slug in waiting
        if isinstance(p := games[slug].get("preparing"), Mapping)
        and p.get("estimate_ms") is not None
    ]
    line = ngettext(
        "certifying winnable deals: {done} of {n} game ready",
        "certifying winnable deals: {done} of {n} games ready",
        len(games),
        done=len(games) - len(waiting),
    )
    if estimates and len(estimates) == len(waiting):
        # the server's own figure for the last of them, once it has one for each (a
        # daily not through its first candidate has no pace yet: no figure then,
        # rather than one for the others alone)
        seconds = max(1, -(-max(estimates) // 1000))
        line += ", " + _("all in about {span}", span=current().duration(seconds))
    return line + "…"


def unproven_label(entry: Mapping[str, Any] | None) -> str | None:
    """What to say of a daily the server could not prove winnable (None if it did, or
    is still trying): the server's ``label``, else made from ``best_founded``."""
    if not entry or entry.get("certified") is not False or entry.get("best_founded") is None:
        return None
    if entry.get("total"):  # our words, not the server's English label
        return _(
            "not proven winnable (best line founds {n} of {total})",
            n=entry["best_founded"],
            total=entry["total"],
        )
    return _("not proven winnable (best line founds {n})", n=entry["best_founded"])


def unproven_lines(daily: Mapping[str, Any]) -> list[str]:
    """``slug: not proven winnable (…)`` for every such daily of a ``daily`` reply."""
    out = []
    for slug, entry in (daily.get("games") or {}).items():
        label = unproven_label(entry)
        if label:
            out.append(f"{slug}: {label}")
    return out


#: what the ``streak`` number counts, said where it is shown (docs/client.md, "Streak")
STREAK_MEANING = N_("UTC days in a row with a daily won or lost by the rules, not resigned")


def result_short(mine: Mapping[str, Any] | None) -> str:
    """A daily result in a narrow column: ``won 104/104``, ``not played``."""
    if not mine:
        return _("not played")
    status = str(mine.get("status") or ("won" if mine.get("won") else "played"))
    status = _(STATUS_WORDS.get(status, N_("played")))
    help_ = f" {_(ASSISTED)}" if assisted(mine) else ""
    if "foundation" in mine:
        return f"{status} {mine['foundation']}/{mine.get('total', '?')}{help_}"
    return f"{status}{help_}"


def result_text(mine: Mapping[str, Any] | None) -> str:
    """A daily result (``mine``) in a few words."""
    if not mine:
        return _("not played")
    status = str(mine.get("status") or ("won" if mine.get("won") else ""))
    bits = [_(STATUS_WORDS.get(status, status))] if status else []
    if "foundation" in mine:
        bits.append(f"{mine['foundation']}/{mine.get('total', '?')}")
    if "moves" in mine:
        bits.append(ngettext("{n} move", "{n} moves", int(mine["moves"])))
    if "time_ms" in mine:
        bits.append(clock(mine["time_ms"]))
    if "rank" in mine and mine["rank"] is not None:
        bits.append(_("rank {n}", n=mine["rank"]))
    if mine.get("clean") is False:
        bits.append(_("undo used"))
    if assisted(mine):
        bits.append(_(ASSISTED_LONG))
    return ", ".join(bits) or _("played")


def daily_text(daily: Mapping[str, Any], titles: Titles | None = None) -> str:
    rows = []
    for slug, entry in (daily.get("games") or {}).items():
        rows.append(
            [
                slug,
                title(slug, titles),
                par_text(entry),
                str(entry.get("commitment") or "")[:16],
                "" if entry.get("seed") is None else entry["seed"],
                result_text(entry.get("mine")),
            ]
        )
    lines = [
        _(
            "Daily deals of {date} (UTC) · streak {streak}",
            date=daily.get("date", "?"),
            streak=daily.get("streak", 0),
        )
    ]
    lines.append(_("streak: {meaning}", meaning=_(STREAK_MEANING)))
    header = [_("game"), _("title"), _("par"), _("commitment"), _("seed"), _("yours")]
    lines.append(table(rows, header))
    unproven = unproven_lines(daily)
    if unproven:  # an incident: said in words under the table
        lines += ["", *unproven]
    return "\n".join(lines)


def entry_row(entry: Mapping[str, Any]) -> list[Any]:
    return [
        entry.get("rank"),
        entry.get("player"),
        _("yes") if entry.get("won") else (_("resigned") if entry.get("resigned") else _("no")),
        entry.get("foundation"),
        entry.get("moves"),
        clock(entry.get("time_ms")),
        "" if entry.get("clean") is None else (_("yes") if entry["clean"] else _("undo used")),
    ]


def rating_value(rating: Mapping[str, Any] | None) -> str:
    """A rating as shown: ``1562``, or ``1540?`` while provisional; ``—`` for none."""
    if not rating:
        return "—"
    return f"{rating['value']}{'?' if rating.get('provisional') else ''}"


def ratings_lines(ratings: Mapping[str, Any] | None, titles: Titles | None = None) -> list[str]:
    """A player's ratings, one game a line, the highest first: ``Crescent 1562``."""
    rated = sorted((ratings or {}).items(), key=lambda kv: -int(kv[1].get("value") or 0))
    return [f"{game_name(slug, titles)} {rating_value(r)}" for slug, r in rated]


#: what "?" after a rating means (issue 51)
PROVISIONAL_MEANING = N_("? provisional: fewer than 5 rated races")


def rating_row(entry: Mapping[str, Any]) -> list[Any]:
    """A row of a game's rating board: rank, player, rating, rated races."""
    rating = entry.get("rating") or {}
    return [entry.get("rank"), entry.get("player"), rating_value(rating), rating.get("races")]


RATING_HEADER = [N_("rank"), N_("player"), N_("rating"), N_("races")]


LEADERBOARD_HEADER = [
    N_("rank"),
    N_("player"),
    N_("won"),
    N_("foundation"),
    N_("moves"),
    N_("time"),
    N_("clean"),
]


def leaderboard_text(board: Mapping[str, Any], *, heading: str, you: str | None = None) -> str:
    entries = board.get("entries") or []
    lines = [heading]
    if entries:
        header = [_(h) for h in LEADERBOARD_HEADER]
        lines.append(table([entry_row(e) for e in entries], header))
    else:
        lines.append(_("no results yet"))
    me = board.get("me")
    if me:
        lines.append(_("you ({name}): rank {n}", name=you or me.get("player"), n=me.get("rank")))
    if board.get("cursor") is not None:
        lines.append(_("more: --cursor {cursor}", cursor=board["cursor"]))
    return "\n".join(lines)


def games_text(games: Sequence[Mapping[str, Any]]) -> str:
    rows = [[g.get("slug"), g.get("title_ru"), g.get("title_en"), g.get("decks")] for g in games]
    return table(rows, [_("slug"), _("Russian"), _("English"), _("decks")])


#: a game's mode (the server's ``mode``), in words
MODE_WORDS = {
    "daily": N_("daily"),
    "practice": N_("practice"),
    "deal": N_("deal"),
    "challenge": N_("challenge"),
    "race": N_("race"),
    "tournament": N_("tournament"),
}

#: how much of a daily's commitment a shared result shows (enough to tell deals apart)
SHARE_COMMITMENT = 12


def share_text(
    game: Mapping[str, Any],
    titles: Titles | None = None,
    *,
    day: str | None = None,
    par: int | None = None,
    rank: int | None = None,
    of: int | None = None,
) -> str:
    """A finished game's result to share, in a few lines of plain text::

        pasyans · Полумесяц (Crescent) · daily 2026-11-25
        won · 104/104 cards · 95 moves (par 87) · 4:12 · #3 of 41
        commitment 3f2a9c1b0d4e…

    ``game`` is a state object or a ``replay`` (its ``deal.commitment`` or
    ``commitment``); ``day`` the date it was played, for a game not on a daily deal;
    ``par`` a certified daily's par; ``rank`` and ``of`` its place on the daily board.
    Nothing that gives the deal away: no seed, no card, no move."""
    slug = str(game.get("game") or "")
    names = (titles or {}).get(slug) or {}
    ru, en = str(names.get("title_ru") or slug), str(names.get("title_en") or "")
    head = ["pasyans", f"{ru} ({en})" if en and en != ru else ru]
    mode = str(game.get("mode") or "")
    date = game.get("date") or day
    mode = _(MODE_WORDS.get(mode, mode)) if mode else ""
    head.append(f"{mode} {date}" if date else mode)
    result = [
        outcome(game),
        _("{done}/{total} cards", done=game.get("foundation", 0), total=game.get("total", 0)),
        ngettext("{n} move", "{n} moves", int(game.get("moves") or 0))
        + (_(" (par {par})", par=par) if par is not None else ""),
        clock(game.get("time_ms")),
    ]
    if rank is not None:
        result.append(_("#{rank} of {of}", rank=rank, of=of) if of else f"#{rank}")
    if game.get("auto_completed"):
        result.append(_("auto-completed"))
    if assisted(game):
        result.append(_(ASSISTED_LONG))
    lines = [" · ".join(p for p in head if p), " · ".join(result)]
    deal = game.get("deal")
    commitment = (deal.get("commitment") if isinstance(deal, Mapping) else None) or game.get(
        "commitment"
    )
    if commitment and game.get("date"):  # a game on a daily deal
        lines.append(_("commitment {commitment}…", commitment=str(commitment)[:SHARE_COMMITMENT]))
    return "\n".join(lines)
