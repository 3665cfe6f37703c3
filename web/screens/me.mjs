// A player's statistics and the history of their games (friends: friends.mjs).

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { go } from "../route.mjs";
import { conn } from "../session.mjs";
import { Title, useAsk } from "../ui.mjs";
import { date, lang } from "../i18n.mjs";
import { assistedNote, clock, modeDay, outcome, W } from "../words.mjs";

const dayShort = (iso) => date(iso, { day: "numeric", month: "short" });
const percent = (pct) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(pct / 100);

export function Stats({ player }) {
  const [answer, error] = useAsk(() => conn.call("stats", player ? { player } : {}), [player]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!answer) return html`<p class="loading">${W.loading}</p>`;
  const c = W.stats.columns;
  // each cell names its column (data-label): on a phone a row is a card of labelled facts
  const rated = answer.ratings || {};
  const row = (name, s, slug) => html`<tr data-game=${slug || ""}>
    <th scope="row">${name}</th><td data-label=${c[0]}>${s.played}</td><td data-label=${c[1]}>${s.won}</td>
    <td data-label=${c[2]}>${s.win_pct === null ? W.none : percent(s.win_pct)}</td>
    <td data-label=${c[3]}>${s.best_moves ?? W.none}</td><td data-label=${c[4]}>${clock(s.best_time_ms)}</td>
    <td data-label=${c[5]}>${s.daily_won}/${s.daily_played}</td><td data-label=${c[6]}>${W.stats.streak(s.streak, s.best_streak)}</td>
    <td data-label=${slug ? c[7] : ""} data-rating=${slug && rated[slug] ? W.ratings.value(rated[slug]) : ""}>${slug ? W.ratings.value(rated[slug]) : ""}</td>
  </tr>`;
  const days = answer.days || [];
  const most = Math.max(1, ...days.map((d) => d.won + d.lost));
  return html`<section class="stats">
    <h1>${W.stats.title(answer.player)}</h1>
    ${answer.tournaments && answer.tournaments.played ? html`<p data-tournament-stats="1">${W.tournament.stats(answer.tournaments)}</p>` : ""}
    <div class="scroll-x"><table class="stack">
      <thead><tr><th>${W.stats.game}</th>${c.map((name) => html`<th>${name}</th>`)}</tr></thead>
      <tbody>
        ${row(W.stats.all, answer.overall)}
        ${Object.entries(answer.games).map(([slug, s]) => row(html`<${Title} slug=${slug} />`, s, slug))}
      </tbody>
    </table></div>
    ${Object.keys(rated).length ? html`<p class="note" data-legend="rating">${W.ratings.legend}</p>` : ""}
    <figure class="chart" aria-labelledby="days-title">
      <figcaption id="days-title"><strong>${W.stats.days}</strong> · ${W.stats.axis}
        <span class="key won">${W.stats.wonKey}</span> <span class="key lost">${W.stats.lostKey}</span></figcaption>
      <div class="chart-body">
        <span class="y-top" aria-hidden="true">${most}</span><span class="y-zero" aria-hidden="true">0</span>
        <ul class="days">
          ${days.map((d) => html`<li class="day" title=${W.stats.day(d)}>
            <span class="bar lost" style=${{ height: `${(100 * d.lost) / most}%` }}></span>
            <span class="bar won" style=${{ height: `${(100 * d.won) / most}%` }}></span>
            <span class="visually-hidden">${W.stats.day(d)}</span></li>`)}
        </ul>
      </div>
      ${days.length ? html`<div class="x-axis" aria-hidden="true"><span>${dayShort(days[0].date)}</span><span>${dayShort(days[days.length - 1].date)}</span></div>` : ""}
    </figure>
  </section>`;
}

export function History() {
  const [rows, setRows] = useState([]);
  const [cursor, setCursor] = useState(undefined);
  const [error, setError] = useState("");
  const more = async (from) => {
    try {
      const reply = await conn.call("my_games", { limit: 30, cursor: from || undefined });
      setRows((r) => [...r, ...reply.games]);
      setCursor(reply.cursor);
    } catch (err) {
      setError(err.message);
    }
  };
  useEffect(() => {
    more(null);
  }, []);
  return html`<section class="history">
    <h1>${W.history.title}</h1>
    ${error ? html`<p class="error">${error}</p>` : ""}
    <div class="scroll-x"><table>
      <thead><tr>${W.history.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
      <tbody>
        ${rows.map(
          (g) => html`<tr data-history=${g.game_id}>
            <td><${Title} slug=${g.game} /></td><td>${modeDay(g.mode, g.date)}</td>
            <td data-assisted=${g.assisted ? "1" : "0"}>${outcome(g)} · ${g.foundation}/${g.total}${assistedNote(g)}</td><td>${g.moves}</td><td>${clock(g.time_ms)}</td>
            <td>${g.status === "playing"
              ? html`<button onClick=${() => go("game", g.game_id)}>${W.history.resume}</button>`
              : html`<button onClick=${() => go("replay", g.game_id)}>${W.history.replay}</button>`}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>
    ${cursor ? html`<button onClick=${() => more(cursor)}>${W.history.more}</button>` : ""}
  </section>`;
}
