// A month of dailies (#calendar/SLUG/YYYY-MM): one game's month as a grid of weeks,
// each day marked won, played or open (its par and difficulty said aloud and in its
// title), a tap on today's or a past day's plays it (a past day's after its day:
// unranked); or, of every game, each day's count.

import { html } from "../vendor/preact-htm.mjs";
import { go } from "../route.mjs";
import { conn, start } from "../session.mjs";
import { app } from "../store.mjs";
import { date, lang, month as monthName } from "../i18n.mjs";
import { GamePicker, Title, useAsk } from "../ui.mjs";
import { utcDate, W } from "../words.mjs";

// a day of the month shown: "Nov 28", "28 нояб." (its month and year are in the heading)
const day = (iso) => date(iso, { day: "numeric", month: "short" });

function shift(month, by) {
  const [y, m] = month.split("-").map(Number);
  const n = y * 12 + (m - 1) + by;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, "0")}`;
}

// the marks of a day: won, played (lost, assisted, in play), open to play
const MARK = { won: "✓", lost: "•", assisted: "•", playing: "•", not_played: "○" };
// the weekdays' short names, Monday first (2024-01-01 was a Monday)
const WEEKDAYS = Array.from({ length: 7 }, (_, i) =>
  new Intl.DateTimeFormat(lang, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1 + i))),
);

function MonthGrid({ game, month, days, today }) {
  const C = W.calendar;
  const byDate = new Map(days.map((d) => [d.date, d]));
  const [y, m] = month.split("-").map(Number);
  const first = (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7; // Monday 0
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const cells = [];
  for (let i = 0; i < first; i++) cells.push(html`<div class="day blank" aria-hidden="true"></div>`);
  for (let n = 1; n <= count; n++) {
    const iso = `${month}-${String(n).padStart(2, "0")}`;
    const d = byDate.get(iso);
    const status = d ? d.status : null;
    const mark = d ? (d.playable || status !== "not_played" ? MARK[status] || "" : "") : "";
    const said = d ? [day(iso), C.status[status] || status, d.par !== null && d.par !== undefined ? `${C.columns[2]} ${d.par}` : "", d.difficulty ? W.difficulty.label(d.difficulty) : ""].filter(Boolean).join(" · ") : day(iso);
    const play = d && iso === today ? () => start(game, "daily") : d && d.playable ? () => start(game, "daily", { date: iso }) : null;
    const inner = html`<span class="n">${n}</span><span class="mark" aria-hidden="true">${mark}</span>`;
    cells.push(html`<div class=${`day${iso === today ? " today" : ""}`} data-day=${iso} data-status=${status || "none"} data-playable=${d && d.playable ? "1" : "0"}>
      ${play
        ? html`<button data-do=${iso === today ? "calendar-today" : "calendar-play"} title=${said} aria-label=${`${n} — ${said} — ${iso === today ? C.playToday : C.play}`} onClick=${play}>${inner}</button>`
        : html`<span class="cell" title=${said} aria-label=${`${n} — ${said}`} role="img">${inner}</span>`}
    </div>`);
  }
  return html`<div class="month-grid" role="group" aria-label=${monthName(month)}>
    ${WEEKDAYS.map((w) => html`<div class="weekday" aria-hidden="true">${w}</div>`)}
    ${cells}
  </div>
  <p class="legend note">✓ ${C.status.won} · • ${C.played} · ○ ${C.open}</p>`;
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
      <${MonthGrid} game=${game} month=${shown} days=${days} today=${today} />`;
  }
  return html`<section class="calendar">
    <h1>${C.title} <small>${monthName(shown)}${game ? html` · <${Title} slug=${game} />` : ""}</small></h1>
    ${head}
    ${body}
  </section>`;
}
