// A month of dailies (#calendar/SLUG/YYYY-MM): each day of one game with your result,
// its par and difficulty, today's and the past days' deals playable (a past day's after
// its day: unranked); or, of every game, each day's count.

import { html } from "../vendor/preact-htm.mjs";
import { go } from "../route.mjs";
import { conn, start } from "../session.mjs";
import { app } from "../store.mjs";
import { date, month as monthName } from "../i18n.mjs";
import { GamePicker, Title, useAsk } from "../ui.mjs";
import { utcDate, W } from "../words.mjs";

// a day of the month shown: "Nov 28", "28 нояб." (its month and year are in the heading)
const day = (iso) => date(iso, { day: "numeric", month: "short" });

function shift(month, by) {
  const [y, m] = month.split("-").map(Number);
  const n = y * 12 + (m - 1) + by;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, "0")}`;
}

export function Difficulty({ level }) {
  if (!level) return "";
  return html`<span class="difficulty" data-difficulty=${level} title=${W.difficulty.label(level)} aria-label=${W.difficulty.label(level)}>${W.difficulty.marks(level)}</span>`;
}

export function Calendar({ slug, month }) {
  const today = utcDate(0);
  const shown = month || today.slice(0, 7);
  const game = slug === "all" ? null : slug || (app.games[0] || {}).slug;
  const [answer, error] = useAsk(() => conn.call("calendar", game ? { month: shown, game } : { month: shown }), [game, shown]);
  const C = W.calendar;
  const days = answer ? [...answer.days].reverse() : [];
  const head = html`<div class="row-actions">
    <${GamePicker} slug=${game || ""} onPick=${(s) => go("calendar", s, shown)} field="calendar-game" label=${C.game} />
    <button data-do="calendar-all" aria-pressed=${game ? "false" : "true"} onClick=${() => go("calendar", game ? "all" : (app.games[0] || {}).slug, shown)}>${C.every}</button>
    <button data-do="month-before" onClick=${() => go("calendar", game || "all", shift(shown, -1))}>${C.before}</button>
    ${shown < today.slice(0, 7) ? html`<button data-do="month-after" onClick=${() => go("calendar", game || "all", shift(shown, 1))}>${C.after}</button>` : ""}
  </div>`;
  let body = "";
  if (error) body = html`<p class="error">${error}</p>`;
  else if (!answer) body = html`<p class="loading">${W.loading}</p>`;
  else if (!days.length) body = html`<p>${C.none}</p>`;
  else if (!game) {
    const won = days.reduce((n, d) => n + d.won, 0);
    const played = days.reduce((n, d) => n + d.played, 0);
    body = html`<p data-month-summary="1">${C.summary(won, played, days.filter((d) => d.played).length)}</p>
      <div class="scroll-x"><table>
        <thead><tr>${C.countColumns.map((c) => html`<th>${c}</th>`)}</tr></thead>
        <tbody>${days.map((d) => html`<tr data-day=${d.date}><td>${day(d.date)}</td><td>${d.won}</td><td>${d.played}</td></tr>`)}</tbody>
      </table></div>`;
  } else {
    const won = days.filter((d) => d.status === "won").length;
    body = html`<p>${C.wonOf(won, days.length)} · ${C.pastNote}</p>
      <div class="scroll-x"><table>
        <thead><tr>${C.columns.map((c) => html`<th>${c}</th>`)}</tr></thead>
        <tbody>
          ${days.map(
            (d) => html`<tr data-day=${d.date} data-status=${d.status} data-playable=${d.playable ? "1" : "0"}>
              <td>${day(d.date)}</td><td>${C.status[d.status] || d.status}</td><td>${d.par ?? W.none}</td>
              <td><${Difficulty} level=${d.difficulty} /></td>
              <td>${d.date === today
                ? html`<button data-do="calendar-today" onClick=${() => start(game, "daily")}>${C.playToday}</button>`
                : d.playable
                  ? html`<button data-do="calendar-play" onClick=${() => start(game, "daily", { date: d.date })}>${C.play}</button>`
                  : ""}</td>
            </tr>`,
          )}
        </tbody>
      </table></div>`;
  }
  return html`<section class="calendar">
    <h1>${C.title} <small>${monthName(shown)}${game ? html` · <${Title} slug=${game} />` : ""}</small></h1>
    ${head}
    ${body}
  </section>`;
}
