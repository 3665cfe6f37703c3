// Races: the lobby (its link, who is in, the creator's Start), the board with
// everybody's progress beside it, and watching a race by its link.

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { Board, StaticBoard } from "../board.mjs";
import { go } from "../route.mjs";
import { conn, openGame } from "../session.mjs";
import { app, update } from "../store.mjs";
import { Report } from "../report.mjs";
import { Title } from "../ui.mjs";
import { W } from "../words.mjs";
import { Rules } from "./game.mjs";

// Once a race is over every member has a place: the winners theirs (the server's
// `place`), then the others in the server's order (most cards founded first), two who
// founded as many sharing one (both resigned at the deal: both second, or both first)
export function placings(players) {
  const places = [];
  players.forEach((p, i) => {
    if (p.place) places.push(p.place);
    else if (i && !players[i - 1].place && players[i - 1].foundation === p.foundation) places.push(places[i - 1]);
    else places.push(i + 1);
  });
  return places;
}

function RacePanel({ race }) {
  // The race's creator may end a running race, and drop a member who is away (the
  // server refuses anyone else, and a member who is here).
  const me = app.account && app.account.player;
  const creator = race.creator === me && race.status !== "finished";
  const act = (op, params, ask) => {
    if (window.confirm(ask)) conn.call(op, { race_id: race.race_id, ...params }).catch((e) => window.alert(e.message));
  };
  const places = race.status === "finished" ? placings(race.players) : null;
  return html`<aside class="race-panel" data-race-status=${race.status} aria-labelledby="race-title">
    <h2 id="race-title">${W.race.panel(race.code, race.status)}${race.watchers ? W.race.spectators(race.watchers) : ""}</h2>
    ${race.seed_chosen ? html`<p class="note">${W.race.chosen(race.creator)}</p>` : ""}
    <ol>
      ${race.players.map(
        (p, i) => html`<li data-member=${p.player} data-place=${places ? places[i] : undefined} class=${p.away ? "away" : ""}>
          <strong>${p.left ? W.race.left : p.player}</strong> ${W.race.row(places ? { ...p, place: places[i] } : p)}
          ${p.out ? ` (${W.out[p.out] || p.out})` : ""}${p.away ? W.race.away : ""}
          ${p.rating ? html` · <span class="rating" data-rating=${p.rating.value} data-rating-change=${p.rating_change ?? ""}>${W.race.rating(p.rating, p.rating_change)}</span>` : ""}
          ${race.status === "finished" ? html` <${Report} name=${p.player} note=${`race ${race.code}`} />` : ""}
          ${creator && p.away && p.player !== me
            ? html` <button data-do="race-drop" onClick=${() => act("race_drop", { player: p.player }, W.race.dropAsk(p.player))}>${W.race.drop}</button>`
            : ""}
        </li>`,
      )}
    </ol>
    ${race.players.some((p) => p.rating && p.rating.provisional) ? html`<p class="note" data-provisional="1">${W.race.provisional}</p>` : ""}
    ${creator && race.status === "running" ? html`<button data-do="race-end" onClick=${() => act("race_end", {}, W.race.endAsk)}>${W.race.end}</button>` : ""}
  </aside>`;
}

async function rematch(race) {
  try {
    const reply = await conn.call("race_rematch", { race_id: race.race_id });
    update({ race: reply.race, game: null });
    go("race", reply.race.code);
  } catch (err) {
    window.alert(err.message);
  }
}

export function Race({ code }) {
  const [error, setError] = useState("");
  const [now, setNow] = useState(Date.now());
  const [rules, setRules] = useState(false);
  const race = app.race && app.race.code.toUpperCase() === code.toUpperCase() ? app.race : null;
  useEffect(() => {
    let alive = true;
    conn
      .call("race_join", { code })
      .then((reply) => {
        if (!alive) return;
        update({ race: reply.race });
        if (reply.state) openGame(reply.state, { race: true });
      })
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
    };
  }, [code]);
  useEffect(() => {
    if (!race || race.status !== "countdown") return undefined;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [race && race.status]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!race) return html`<p class="loading">${W.race.joining(code)}</p>`;
  const me = app.account && app.account.player;
  const link = `${location.origin}/#race/${race.code}`;
  const leave = async () => {
    if (!window.confirm(race.status === "running" ? W.race.leaveRunning : W.race.leaveLobby)) return;
    await conn.call("race_leave", { race_id: race.race_id }).catch(() => {});
    update({ race: null, game: null });
    go("home");
  };
  const game = app.game && app.game.state.mode === "race" ? app.game : null;
  if (game && (race.status === "running" || race.status === "finished")) {
    const side = html`<${RacePanel} race=${race} />${race.status === "finished" ? html`<button data-do="rematch" onClick=${() => rematch(race)}>${W.race.rematch}</button>` : ""}`;
    return html`<${Board} game=${game} titles=${app.titles} onLeave=${leave} onRules=${() => setRules(true)} side=${side} />
      ${rules ? html`<${Rules} slug=${game.state.game} onClose=${() => setRules(false)} />` : ""}`;
  }
  const left = race.status === "countdown" ? Math.max(0, Math.ceil((race.starts_at - now) / 1000)) : null;
  return html`<section class="race" data-race=${race.code} data-race-status=${race.status}>
    <h1>${W.race.title} · <${Title} slug=${race.game} /></h1>
    <p>${W.race.link} <a href=${link} data-race-link=${link}>${link}</a></p>
    ${left !== null ? html`<p class="countdown" aria-live="polite">${W.race.startsIn(left)}</p>` : ""}
    <${RacePanel} race=${race} />
    ${race.status === "lobby" && race.creator === me
      ? html`<button class="primary" data-do="race-start" onClick=${() => conn.call("race_start", { race_id: race.race_id }).catch((e) => setError(e.message))}>${W.race.start}</button>`
      : race.status === "lobby"
        ? html`<p>${W.race.waiting(race.creator)}</p>`
        : ""}
    ${race.status === "finished" ? html`<button data-do="rematch" onClick=${() => rematch(race)}>${W.race.rematch}</button>` : ""}
    <button data-do="race-leave" onClick=${leave}>${W.race.leave}</button>
  </section>`;
}

export function Watch({ code }) {
  const [error, setError] = useState("");
  useEffect(() => {
    let alive = true;
    conn
      .call("race_watch", { code })
      .then((reply) => {
        if (!alive) return;
        const boards = {};
        for (const b of reply.boards || []) boards[b.player] = b.state;
        update({ watching: { race: reply.race, boards } });
      })
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
      const w = app.watching;
      if (w) conn.call("race_unwatch", { race_id: w.race.race_id }).catch(() => {});
      update({ watching: null });
    };
  }, [code]);
  if (error) return html`<p class="error">${error}</p>`;
  const w = app.watching;
  if (!w) return html`<p class="loading">${W.race.watchingLoading(code)}</p>`;
  const race = w.race;
  return html`<section class="watch" data-watch=${race.code} data-race-status=${race.status}>
    <h1>${W.race.watching(race.code)}<${Title} slug=${race.game} /></h1>
    <${RacePanel} race=${race} />
    ${race.players.map((p) => {
      const state = w.boards[p.player];
      return html`<div class="watched" data-member-board=${p.player}>
        <h2>${p.left ? W.race.left : p.player} · ${W.race.row(p)}</h2>
        ${!state
          ? html`<p>${W.race.notDealt}</p>`
          : state.view
            ? html`<${StaticBoard} view=${state.view} />`
            : html`<p class="note" data-held-back="1">${W.race.heldBack}</p>`}
      </div>`;
    })}
  </section>`;
}
