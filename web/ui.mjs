// Small pieces every screen uses: a game's title (its Russian name marked as Russian),
// a request's answer as state, a labelled game picker.

import { html, useEffect, useState } from "./vendor/preact-htm.mjs";
import { app } from "./store.mjs";
import { W } from "./words.mjs";

// "Косынка (Klondike)": the Russian title in lang="ru", the English one beside it
export function Title({ slug, english = true }) {
  const t = app.titles[slug] || {};
  if (!t.title_ru) return html`<span>${slug}</span>`;
  return html`<span class="title"><span lang="ru">${t.title_ru}</span>${english && t.title_en ? html` <span class="en">(${t.title_en})</span>` : ""}</span>`;
}

// [answer, error, again]: the answer of `ask()` (a promise), asked again when `deps`
// change or `again()` is called
export function useAsk(ask, deps) {
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState("");
  const [round, setRound] = useState(0);
  useEffect(() => {
    let alive = true;
    setError("");
    ask()
      .then((reply) => alive && setAnswer(reply))
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
    };
  }, [...deps, round]);
  return [answer, error, () => setRound((n) => n + 1)];
}

// a <select> of every game, with its label
export function GamePicker({ slug, onPick, field = "game", label = W.leaderboard.game }) {
  return html`<label class="field">${label}
    <select data-field=${field} value=${slug} onChange=${(e) => onPick(e.target.value)}>
      ${app.games.map((g) => html`<option value=${g.slug} lang="ru">${g.title_ru} (${g.title_en})</option>`)}
    </select>
  </label>`;
}
