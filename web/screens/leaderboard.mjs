// A game's leaderboard: the daily of any date or all-time, around me, friends; a row of
// a day that is over opens that player's replay.

import { html, useState } from "../vendor/preact-htm.mjs";
import { go } from "../route.mjs";
import { conn } from "../session.mjs";
import { app } from "../store.mjs";
import { Report } from "../report.mjs";
import { GamePicker, useAsk } from "../ui.mjs";
import { clock, utcDate, W } from "../words.mjs";

export function Leaderboard({ slug, date }) {
  const [board, setBoard] = useState("daily");
  const [day, setDay] = useState(date || utcDate());
  const [aroundMe, setAroundMe] = useState(false);
  const [friends, setFriends] = useState(false);
  const [answer, error] = useAsk(
    () =>
      conn.call("leaderboard", {
        game: slug,
        board,
        date: board === "daily" ? day : undefined,
        around_me: aroundMe || undefined,
        friends: friends || undefined,
        limit: 50,
      }),
    [slug, board, day, aroundMe, friends],
  );
  const over = board === "daily" && day < utcDate();
  const c = W.leaderboard.columns;
  const open = (player) => over && go("replay", slug, day, player);
  return html`<section class="leaderboard">
    <h1>${W.leaderboard.title}</h1>
    <div class="filters">
      <${GamePicker} slug=${slug} onPick=${(s) => go("leaderboard", s)} />
      <label class="field">${W.leaderboard.board}
        <select data-field="board" value=${board} onChange=${(e) => setBoard(e.target.value)}>
          <option value="daily">${W.leaderboard.daily}</option><option value="alltime">${W.leaderboard.alltime}</option><option value="rating">${W.ratings.board}</option>
        </select>
      </label>
      ${board === "daily"
        ? html`<label class="field">${W.leaderboard.date}
            <input type="date" data-field="date" value=${day} max=${utcDate()} onChange=${(e) => setDay(e.target.value)} />
          </label>`
        : ""}
      <label class="toggle"><input type="checkbox" data-field="around-me" checked=${aroundMe} onChange=${(e) => setAroundMe(e.target.checked)} /> ${W.leaderboard.aroundMe}</label>
      <label class="toggle"><input type="checkbox" data-field="friends" checked=${friends} onChange=${(e) => setFriends(e.target.checked)} /> ${W.leaderboard.friends}</label>
    </div>
    ${error ? html`<p class="error">${error}</p>` : ""}
    ${answer && board === "rating"
      ? html`<${Ratings} answer=${answer} />`
      : answer
      ? html`<div class="scroll-x"><table class="entries">
          <thead><tr><th>${c.rank}</th><th>${c.player}</th><th>${c.result}</th><th>${c.moves}</th><th>${c.time}</th></tr></thead>
          <tbody>
            ${answer.entries.map(
              (e) => html`<tr
                data-player=${e.player}
                class=${`${app.account && e.player === app.account.player ? "me" : ""}${over ? " opens" : ""}`}
                onClick=${over ? () => open(e.player) : undefined}
                title=${over ? W.leaderboard.openReplay : W.leaderboard.laterReplay}
              >
                <td>${e.rank}</td>
                <td>${over ? html`<a href=${`#replay/${encodeURIComponent(slug)}/${day}/${encodeURIComponent(e.player)}`}>${e.player}</a>` : e.player} <${Report} name=${e.player} note=${`${slug} ${day}`} /></td>
                <td>${e.won ? W.leaderboard.won : e.resigned ? W.leaderboard.resigned : W.leaderboard.lost} · ${e.foundation}</td>
                <td>${e.moves}</td><td>${clock(e.time_ms)}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>
        <p>${W.leaderboard.entries(answer.total || 0)}${answer.me ? W.leaderboard.me(answer.me.rank) : ""}</p>`
      : html`<p class="loading">${W.loading}</p>`}
  </section>`;
}

// A game's rating board (issue 51): the players past provisional, highest first.
function Ratings({ answer }) {
  const c = W.leaderboard.columns;
  const r = W.ratings.columns;
  return html`<div class="scroll-x"><table class="entries ratings">
      <thead><tr><th>${c.rank}</th><th>${c.player}</th><th>${r.rating}</th><th>${r.races}</th></tr></thead>
      <tbody>
        ${answer.entries.map(
          (e) => html`<tr data-player=${e.player} data-rating=${W.ratings.value(e.rating)} class=${app.account && e.player === app.account.player ? "me" : ""}>
            <td>${e.rank}</td><td>${e.player} <${Report} name=${e.player} /></td>
            <td>${W.ratings.value(e.rating)}</td><td>${e.rating.races}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>
    <p>${W.leaderboard.entries(answer.total || 0)}${answer.me ? W.leaderboard.me(answer.me.rank) + ` (${W.ratings.value(answer.me.rating)})` : ""}</p>
    ${answer.me ? "" : html`<p class="note" data-note="not-rated">${W.ratings.notYet}</p>`}`;
}
