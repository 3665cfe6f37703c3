// The home screen: today's dailies (certified, or still being certified: with the
// progress, opening by itself when ready), practice, races, a deal by number, and
// yesterday's seeds with their commitments checked in the page.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { parseSeed } from "../net.mjs";
import { go } from "../route.mjs";
import { conn, start } from "../session.mjs";
import { app, update } from "../store.mjs";
import { date } from "../i18n.mjs";
import { GamePicker, Title } from "../ui.mjs";
import { Difficulty } from "./calendar.mjs";
import { assistedNote, commitment, outcome, utcDate, W } from "../words.mjs";

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
  return html`<span class="mine ${mine.status}" data-assisted=${mine.assisted ? "1" : "0"}>${outcome(mine)} · ${mine.foundation}/${mine.total} · ${W.count.moves(mine.moves)}${assistedNote(mine)}</span>`;
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
  return html`<li data-game=${g.slug} class="daily">
    <h2 class="names"><span lang="ru">${g.title_ru}</span> <span class="en" lang="en">${g.title_en}</span></h2>
    <div class="facts">
      <span class="cert">${dailyState(entry)}</span>
      ${entry && entry.difficulty ? html`<${Difficulty} level=${entry.difficulty} />` : ""}
      ${entry ? html`<${Mine} mine=${entry.mine} />` : ""}
      ${entry && entry.commitment ? html`<code class="commitment" title=${entry.commitment}>${W.home.commitment} ${entry.commitment.slice(0, 12)}…</code>` : ""}
    </div>
    <div class="row-actions">
      <button class="primary" data-do="daily" aria-pressed=${entry && entry.preparing ? String(Boolean(app.startWhenReady[g.slug])) : undefined} onClick=${play}>${label}</button>
      <button data-do="practice" onClick=${() => start(g.slug, "practice")}>${W.home.practice}</button>
      <button data-do="race" onClick=${race}>${W.home.race}</button>
      <button data-do="leaderboard" onClick=${() => go("leaderboard", g.slug)}>${W.home.leaderboard}</button>
      <button data-do="calendar" onClick=${() => go("calendar", g.slug)}>${W.calendar.open}</button>
    </div>
  </li>`;
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
    <h2 id="past-title">${W.home.yesterday(past.date)}</h2>
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
    <ul class="dailies">
      ${app.games.map((g) => html`<${Daily} key=${g.slug} g=${g} entry=${daily && daily.games[g.slug]} />`)}
    </ul>
    <${DealForm} />
    <${Yesterday} />
  </section>`;
}
