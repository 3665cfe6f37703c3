// The home screen: today's dailies (certified, or still being certified: with the
// progress, opening by itself when ready), practice, races, a deal by number, and
// yesterday's seeds with their commitments checked in the page.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { parseSeed } from "../net.mjs";
import { go } from "../route.mjs";
import { conn, start } from "../session.mjs";
import { app, update } from "../store.mjs";
import { date, lang } from "../i18n.mjs";
import { GamePicker, Title } from "../ui.mjs";
import { Difficulty } from "./calendar.mjs";
import { assistedNote, clock, outcome, utcDate, W } from "../words.mjs";

// sha256(seed as 8 big-endian bytes ‖ "YYYY-MM-DD:slug") in hex (docs/protocol.md)
export async function commitment(seed, date, slug) {
  const text = new TextEncoder().encode(`${date}:${slug}`);
  const bytes = new Uint8Array(8 + text.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(seed));
  bytes.set(text, 8);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// ms between two asks of `daily` while a daily is being certified
const POLL_MS = 3000;

function Countdown() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  const left = Math.floor((next - now) / 1000);
  const hh = Math.floor(left / 3600);
  const mm = String(Math.floor((left % 3600) / 60)).padStart(2, "0");
  const ss = String(left % 60).padStart(2, "0");
  return html`<span class="countdown">${W.home.nextIn(`${hh}:${mm}:${ss}`)}</span>`;
}

// "ready in about 40 seconds" from a daily's `preparing.estimate_ms` ("" when unknown)
export function readyIn(preparing) {
  const ms = preparing && preparing.estimate_ms;
  if (ms === null || ms === undefined) return "";
  return W.home.ready(Math.max(1, Math.ceil(ms / 1000)));
}

function dailyState(entry) {
  if (!entry) return "";
  if (entry.preparing) {
    const p = entry.preparing;
    const facts = [typeof p === "object" && p.tried ? W.home.tried(p.tried) : "", readyIn(p)];
    return W.home.certifying(facts.filter(Boolean).join(", "));
  }
  if (entry.certified) return W.home.certified(entry.par);
  return W.home.unproven(entry.best_founded, entry.total);
}

function Mine({ mine }) {
  if (!mine) return html`<span class="mine none">${W.home.notPlayed}</span>`;
  if (mine.status === "playing") return html`<span class="mine playing">${W.home.inPlay(mine.moves)}</span>`;
  const time = mine.status === "won" && mine.time_ms !== null && mine.time_ms !== undefined ? ` · ${clock(mine.time_ms)}` : "";
  return html`<span class="mine ${mine.status}" data-assisted=${mine.assisted ? "1" : "0"}>${outcome(mine)}${time} · ${mine.foundation}/${mine.total} · ${W.count.moves(mine.moves)}${assistedNote(mine)}</span>`;
}

// A small picture of a game's table, drawn from its layout (the `games` reply: where
// each pile lies, how it fans): cards as light rectangles, a foundation as an outline,
// the stock as a card's back, a column fanned down as a taller card.
const CELL = { w: 10, h: 14, gap: 2 };
export function Picture({ layout }) {
  if (!layout || !layout.length) return html`<div class="pic" aria-hidden="true"></div>`;
  const cols = Math.max(...layout.map((p) => p.x)) + 1;
  const rows = Math.max(...layout.map((p) => p.y)) + 1;
  const tall = (p) => (p.fan === "down" ? CELL.h + 8 : CELL.h);
  const heights = Array.from({ length: rows }, (_, y) => Math.max(0, ...layout.filter((p) => p.y === y).map(tall)));
  const tops = heights.map((_, y) => heights.slice(0, y).reduce((a, h) => a + (h ? h + CELL.gap : 0), 0));
  const width = cols * (CELL.w + CELL.gap) + CELL.gap;
  const height = tops[rows - 1] + heights[rows - 1] + CELL.gap * 2;
  return html`<svg class="pic" viewBox=${`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
    <rect class="felt" width=${width} height=${height} rx="3" />
    ${layout.map((p) => {
      const x = CELL.gap + p.x * (CELL.w + CELL.gap);
      const y = CELL.gap + tops[p.y];
      const w = p.fan === "right" ? CELL.w * 2.2 : CELL.w;
      return html`<rect class=${`k-${p.kind}`} x=${x} y=${y} width=${w} height=${tall(p)} rx="1.5" />`;
    })}
  </svg>`;
}

// today's dailies, asked again every few seconds while one is being certified
function useDaily() {
  const [daily, setDaily] = useState(app.daily);
  useEffect(() => {
    let timer = null;
    let alive = true;
    const load = async () => {
      try {
        const reply = await conn.call("daily", {});
        if (!alive) return;
        app.daily = reply;
        setDaily(reply);
        const ready = Object.keys(app.startWhenReady || {}).find((slug) => reply.games[slug] && !reply.games[slug].preparing);
        if (ready) {
          app.startWhenReady = {};
          start(ready, "daily");
          return;
        }
        const waiting = Object.keys(app.startWhenReady || {}).length > 0;
        if (waiting || Object.values(reply.games).some((g) => g.preparing)) timer = setTimeout(load, POLL_MS);
      } catch (err) {
        if (alive) timer = setTimeout(load, POLL_MS);
      }
    };
    load();
    app.reloadHome = () => {
      clearTimeout(timer);
      timer = setTimeout(load, POLL_MS);
    };
    return () => {
      alive = false;
      app.reloadHome = null;
      clearTimeout(timer);
    };
  }, []);
  return daily;
}

function Daily({ g, entry }) {
  // Play a daily: at once, or, while it is being certified, as soon as it is ready
  const play = () => {
    if (!entry || !entry.preparing) return start(g.slug, "daily");
    update({ startWhenReady: app.startWhenReady[g.slug] ? {} : { [g.slug]: true } });
    return null;
  };
  const race = async () => {
    try {
      const reply = await conn.call("race_create", { game: g.slug });
      update({ race: reply.race, game: null });
      go("race", reply.race.code);
    } catch (err) {
      update({ notice: err.message });
    }
  };
  const label = entry && entry.mine
    ? entry.mine.status === "playing" ? W.home.resume : W.home.result
    : entry && entry.preparing
      ? app.startWhenReady[g.slug] ? W.home.opensWhenReady : W.home.whenReady
      : W.home.playDaily;
  const mine = entry && entry.mine;
  const state = mine ? (mine.status === "playing" ? "playing" : mine.status) : "new";
  const title = lang === "ru" ? g.title_ru : g.title_en;
  return html`<li data-game=${g.slug} class="daily tile" data-state=${state}>
    <${Picture} layout=${g.layout} />
    <div class="tile-body">
      <h2 class="names" lang=${lang === "ru" ? "ru" : "en"}>${title}</h2>
      <p class="facts">
        ${entry ? html`<${Mine} mine=${mine} />` : html`<span class="mine"> </span>`}
        ${entry && entry.difficulty ? html`<${Difficulty} level=${entry.difficulty} />` : ""}
      </p>
      <p class="facts cert-line"><span class="cert">${dailyState(entry)}</span></p>
      <button class="primary" data-do="daily" aria-pressed=${entry && entry.preparing ? String(Boolean(app.startWhenReady[g.slug])) : undefined} onClick=${play}>${label}</button>
      <div class="row-actions">
        <button class="small" data-do="practice" onClick=${() => start(g.slug, "practice")}>${W.home.practice}</button>
        <button class="small" data-do="race" onClick=${race}>${W.home.race}</button>
        <button class="small" data-do="leaderboard" onClick=${() => go("leaderboard", g.slug)}>${W.home.leaderboard}</button>
        <button class="small" data-do="calendar" onClick=${() => go("calendar", g.slug)}>${W.home.calendar}</button>
      </div>
    </div>
  </li>`;
}

// the games in play first ("continue your game"), then the ones not played, then the rest
const ORDER = { playing: 0, new: 1 };
function order(games, daily) {
  const rank = (g) => {
    const mine = daily && daily.games[g.slug] && daily.games[g.slug].mine;
    return ORDER[mine ? mine.status : "new"] ?? 2;
  };
  return [...games].map((g, i) => [rank(g), i, g]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , g]) => g);
}

// A game left in play (a practice deal on the board, or a daily): one tap back to it
function Continue({ daily }) {
  const game = app.game && app.game.playing && app.game.state.mode !== "race" ? app.game : null;
  const open = daily ? Object.entries(daily.games).filter(([, e]) => e.mine && e.mine.status === "playing") : [];
  if (!game && !open.length) return "";
  const name = (slug) => {
    const t = app.titles[slug] || {};
    return (lang === "ru" ? t.title_ru : t.title_en) || t.title_ru || slug;
  };
  return html`<section class="continue" aria-label=${W.home.continueTitle}>
    ${game && !open.some(([slug]) => slug === game.state.game && game.state.mode === "daily")
      ? html`<button class="primary" data-do="continue" onClick=${() => go("game", game.state.game_id)}>${W.home.continueGame(name(game.state.game))}</button>`
      : ""}
    ${open.map(([slug]) => html`<button class="primary" data-do="continue" onClick=${() => start(slug, "daily")}>${W.home.continueGame(name(slug))}</button>`)}
  </section>`;
}

// Today's commitments (what "verify" checks once the day is over), out of the tiles' way
function Commitments({ daily }) {
  if (!daily) return "";
  const rows = Object.entries(daily.games).filter(([, e]) => e.commitment);
  return html`<details class="commitments">
    <summary>${W.home.commitmentsToday}</summary>
    <ul>${rows.map(([slug, e]) => html`<li><${Title} slug=${slug} english=${false} />: <code>${e.commitment}</code></li>`)}</ul>
  </details>`;
}

function DealForm() {
  const [dealGame, setDealGame] = useState(app.games[0] ? app.games[0].slug : "");
  const [seed, setSeed] = useState("");
  const [error, setError] = useState("");
  const deal = (event) => {
    event.preventDefault();
    const value = parseSeed(seed);
    if (value === null) return setError(W.home.badSeed);
    setError("");
    return start(dealGame, "deal", { seed: value });
  };
  return html`<form class="deal" onSubmit=${deal} aria-labelledby="deal-title">
    <h2 id="deal-title">${W.home.dealTitle}</h2>
    <${GamePicker} slug=${dealGame} onPick=${setDealGame} field="deal-game" label=${W.home.dealGame} />
    <label class="field">${W.home.dealSeed}
      <input data-field="seed" inputmode="numeric" autocomplete="off" value=${seed} onInput=${(e) => setSeed(e.target.value)} placeholder=${W.home.dealExample} />
    </label>
    <button data-do="deal">${W.home.deal}</button>
    ${error ? html`<span class="error" role="alert">${error}</span>` : ""}
  </form>`;
}

function Yesterday() {
  const [past, setPast] = useState(null);
  const [checks, setChecks] = useState({});
  useEffect(() => {
    let alive = true;
    conn.call("daily", { date: utcDate(-1) }).then((reply) => alive && setPast(reply)).catch(() => {});
    return () => {
      alive = false;
    };
  }, []);
  if (!past) return "";
  const known = (entry) => entry.seed !== null && entry.seed !== undefined && entry.commitment;
  const verify = async (slug, entry) => {
    const mine = await commitment(entry.seed, past.date, slug);
    setChecks((c) => ({ ...c, [slug]: mine === entry.commitment }));
  };
  const verifyAll = async () => {
    for (const [slug, entry] of Object.entries(past.games)) if (known(entry)) await verify(slug, entry);
  };
  const c = W.home.columns;
  return html`<section class="past" aria-labelledby="past-title">
    <h3 id="past-title">${W.home.yesterday(past.date)}</h3>
    <button data-do="verify-all" onClick=${verifyAll}>${W.home.verifyAll}</button>
    <div class="scroll-x">
      <table>
        <thead><tr><th>${c.game}</th><th>${c.seed}</th><th>${c.par}</th><th>${c.commitment}</th><th>${c.check}</th></tr></thead>
        <tbody>
          ${Object.entries(past.games).map(
            ([slug, entry]) => html`<tr data-past=${slug}>
              <td><${Title} slug=${slug} english=${false} /></td>
              <td><code>${entry.seed === null || entry.seed === undefined ? W.none : String(entry.seed)}</code></td>
              <td>${entry.par ?? W.none}</td>
              <td><code title=${entry.commitment || ""}>${(entry.commitment || W.none).slice(0, 12)}</code></td>
              <td>
                ${known(entry)
                  ? checks[slug] === undefined
                    ? html`<button data-do="verify" onClick=${() => verify(slug, entry)}>${W.home.verify}</button>`
                    : html`<span class=${checks[slug] ? "ok" : "bad"} data-verified=${checks[slug] ? "yes" : "no"}>${checks[slug] ? W.home.matches : W.home.mismatch}</span>`
                  : ""}
                ${entry.certified ? html` <button class="link" onClick=${() => go("replay", slug, past.date)}>${W.home.parLine}</button>` : ""}
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

export function Home() {
  const daily = useDaily();
  return html`<section class="home">
    <header class="home-head">
      <h1>${W.home.title} <small>${daily ? date(daily.date) : ""}</small></h1>
      <${Countdown} />
      ${daily ? html`<span class="streak">${W.home.streak(daily.streak || 0)}</span>` : ""}
    </header>
    ${app.notice ? html`<p class="error notice" role="alert" data-notice="1">${app.notice}</p>` : ""}
    <${Continue} daily=${daily} />
    <ul class="dailies">
      ${order(app.games, daily).map((g) => html`<${Daily} key=${g.slug} g=${g} entry=${daily && daily.games[g.slug]} />`)}
    </ul>
    <${DealForm} />
    <section class="verify" aria-labelledby="verify-title">
      <h2 id="verify-title">${W.home.verifyTitle}</h2>
      <p class="note">${W.home.verifyNote}</p>
      <${Commitments} daily=${daily} />
      <${Yesterday} />
    </section>
  </section>`;
}
