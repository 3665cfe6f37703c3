// A challenge (#challenge/CODE): its game, creator, everyone's results ranked, what
// may be known of its deal; play it, or close it (its creator).

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { conn, openGame } from "../session.mjs";
import { app } from "../store.mjs";
import { Title, useAsk } from "../ui.mjs";
import { assistedNote, clock, outcome, utcMinute, W } from "../words.mjs";

export function Challenge({ code }) {
  const [answer, error, reload] = useAsk(() => conn.call("challenge", { code }), [code]);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState("");
  if (error) return html`<p class="error">${error}</p>`;
  if (!answer) return html`<p class="loading">${W.challenge.loading(code)}</p>`;
  const c = answer.challenge;
  const C = W.challenge;
  const play = async () => {
    setBusy(true);
    setFailed("");
    try {
      const reply = await conn.call("challenge_accept", { code: c.code });
      openGame(reply.state);
    } catch (err) {
      setFailed(err.message);
      setBusy(false);
      reload();
    }
  };
  const me = app.account && app.account.player;
  const mine = c.creator === me && c.mark;
  const close = async () => {
    if (!window.confirm(C.closeAsk)) return;
    setFailed("");
    try {
      await conn.call("challenge_close", { code: c.code });
      reload();
    } catch (err) {
      setFailed(err.message);
    }
  };
  const waiting = c.opens !== null && c.opens !== undefined && !c.closed;
  const playable = !mine && !c.closed && !c.game_id && !waiting;
  // opened by its link before signing in: played as soon as the player is in
  useEffect(() => {
    if (app.playChallenge === c.code) {
      app.playChallenge = null;
      if (playable) play();
    }
  }, [c.code]);
  return html`<section class="challenge" data-challenge=${c.code} data-closed=${c.closed ? "1" : "0"}>
    <h1>${C.title(c.code)}<${Title} slug=${c.game} /></h1>
    <p>${C.by(c.creator)}${c.seed_chosen ? C.chosen : ""}${" · "}${c.closed ? C.closed : C.openUntil(utcMinute(c.expires))}</p>
    ${waiting ? html`<p class="note" data-opens="1">${C.opens(utcMinute(c.opens))}</p>` : ""}
    ${c.seed_known ? html`<p class="note" data-seed-known="1">${C.seedKnown}</p>` : ""}
    ${c.seed_public ? html`<p class="note" data-seed-public="1">${C.seedPublic}</p>` : ""}
    ${c.seed !== null && c.seed !== undefined ? html`<p>${C.deal(String(c.seed))}</p>` : ""}
    <p>${C.share} <code>${`${location.origin}/#challenge/${c.code}`}</code></p>
    ${c.results.length
      ? html`<div class="scroll-x"><table class="results">
          <thead><tr>${C.columns.map((h) => html`<th>${h}</th>`)}</tr></thead>
          <tbody>
          ${c.results.map(
            (r) => html`<tr data-player=${r.player}><td>${r.rank === null || r.rank === undefined ? W.none : r.rank}</td><td>${r.player}${r.mark ? C.mark : ""}</td>
              <td>${outcome(r)}${assistedNote(r)}${r.seed_known ? C.seedKnownRow : ""}</td><td>${r.foundation}/${r.total}</td>
              <td>${r.moves}</td><td>${clock(r.time_ms)}</td></tr>`,
          )}
          </tbody></table></div>`
      : html`<p>${C.noResult}</p>`}
    ${c.playing.length ? html`<p>${C.playing(c.playing.join(", "))}</p>` : ""}
    ${mine
      ? html`<p>${C.yourMark}</p>`
      : c.closed && !c.game_id
        ? ""
        : html`<button class="primary" data-do="challenge-play" disabled=${busy || (waiting && !c.game_id)} onClick=${play}>
          ${c.game_id ? C.back : C.play}</button>`}
    ${c.creator === me && !c.closed ? html`<button data-do="challenge-close" onClick=${close}>${C.close}</button>` : ""}
    ${failed ? html`<p class="error">${failed}</p>` : ""}
  </section>`;
}
