// A player's statistics and the history of their games (friends: friends.mjs).

import { html, useEffect, useState } from "../vendor/preact-htm.mjs";
import { go } from "../route.mjs";
import { conn } from "../session.mjs";
import { Title, useAsk } from "../ui.mjs";
import { lang } from "../i18n.mjs";
import { assistedNote, clock, modeDay, outcome, W } from "../words.mjs";

const percent = (pct) => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(pct / 100);

export function Stats({ player }) {
  const [answer, error] = useAsk(() => conn.call("stats", player ? { player } : {}), [player]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!answer) return html`<p class="loading">${W.loading}</p>`;
  const row = (name, s) => html`<tr>
    <th scope="row">${name}</th><td>${s.played}</td><td>${s.won}</td>
    <td>${s.win_pct === null ? W.none : percent(s.win_pct)}</td>
    <td>${s.best_moves ?? W.none}</td><td>${clock(s.best_time_ms)}</td>
    <td>${s.daily_won}/${s.daily_played}</td><td>${W.stats.streak(s.streak, s.best_streak)}</td>
  </tr>`;
  return html`<section class="stats">
    <h1>${W.stats.title(answer.player)}</h1>
    <div class="scroll-x"><table>
      <thead><tr><th>${W.stats.game}</th>${W.stats.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
      <tbody>
        ${row(W.stats.all, answer.overall)}
        ${Object.entries(answer.games).map(([slug, s]) => row(html`<${Title} slug=${slug} />`, s))}
      </tbody>
    </table></div>
    <h2>${W.stats.days}</h2>
    <ul class="days">
      ${answer.days.map((d) => html`<li class="day" title=${W.stats.day(d)} style=${{ height: `${4 + 6 * (d.won + d.lost)}px` }}><span class="visually-hidden">${W.stats.day(d)}</span></li>`)}
    </ul>
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
