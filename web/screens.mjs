// The screens besides sign-in, home and the board: leaderboards, replays, stats,
// history, friends and races. Each asks the server and shows its answer.

import { html, useEffect, useState } from "./vendor/preact-htm.mjs";
import { app, conn, go, openGame, update } from "./app.mjs";
import { Board, StaticBoard } from "./board.mjs";
import { assistedNote, clock, formatMove, outcome, plural, utcDate } from "./words.mjs";

function useAsk(ask, deps) {
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState("");
  const [again, setAgain] = useState(0);
  useEffect(() => {
    let alive = true;
    setError("");
    ask()
      .then((reply) => alive && setAnswer(reply))
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
    };
  }, [...deps, again]);
  return [answer, error, () => setAgain((n) => n + 1)];
}

const title = (slug) => {
  const t = app.titles[slug] || {};
  return t.title_ru ? `${t.title_ru} (${t.title_en})` : slug;
};

function GamePicker({ slug, onPick }) {
  return html`<select data-field="game" value=${slug} onChange=${(e) => onPick(e.target.value)}>
    ${app.games.map((g) => html`<option value=${g.slug}>${g.title_ru} (${g.title_en})</option>`)}
  </select>`;
}

// -- leaderboards -------------------------------------------------------------

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
  return html`<section class="leaderboard">
    <h2>Leaderboard</h2>
    <div class="filters">
      <${GamePicker} slug=${slug} onPick=${(s) => go("leaderboard", s)} />
      <select data-field="board" value=${board} onChange=${(e) => setBoard(e.target.value)}>
        <option value="daily">daily</option><option value="alltime">all-time</option>
      </select>
      ${board === "daily" ? html`<input type="date" data-field="date" value=${day} max=${utcDate()} onChange=${(e) => setDay(e.target.value)} />` : ""}
      <label class="toggle"><input type="checkbox" checked=${aroundMe} onChange=${(e) => setAroundMe(e.target.checked)} /> around me</label>
      <label class="toggle"><input type="checkbox" checked=${friends} onChange=${(e) => setFriends(e.target.checked)} /> friends</label>
    </div>
    ${error ? html`<p class="error">${error}</p>` : ""}
    ${answer
      ? html`<table class="entries">
          <thead><tr><th>#</th><th>player</th><th>result</th><th>moves</th><th>time</th></tr></thead>
          <tbody>
            ${answer.entries.map(
              (e) => html`<tr
                data-player=${e.player}
                class=${app.account && e.player === app.account.player ? "me" : ""}
                onClick=${over ? () => go("replay", slug, day, e.player) : undefined}
                title=${over ? "open the replay" : "replays open once the day is over"}
              >
                <td>${e.rank}</td><td>${e.player}</td>
                <td>${e.won ? "won" : e.resigned ? "resigned" : "lost"} · ${e.foundation}</td>
                <td>${e.moves}</td><td>${clock(e.time_ms)}</td>
              </tr>`,
            )}
          </tbody>
        </table>
        <p>${plural(answer.total || 0, "entry")}${answer.me ? ` · you: #${answer.me.rank}` : ""}</p>`
      : html`<p class="loading">…</p>`}
  </section>`;
}

// -- replays ------------------------------------------------------------------

// #replay/GAME_ID, #replay/SLUG/DATE (the par line), #replay/SLUG/DATE/PLAYER
export function Replay({ args }) {
  const [step, setStep] = useState(null);
  const params =
    args.length === 1
      ? { game_id: args[0] }
      : { game: args[0], date: args[1], ...(args[2] ? { player: args[2] } : {}) };
  const [whole, error] = useAsk(() => conn.call("replay", params), [args.join("/")]);
  const total = whole ? whole.replay.moves : 0;
  const at = step === null ? total : step;
  const [position] = useAsk(
    () => (whole ? conn.call("replay", { ...params, step: at }) : Promise.resolve(null)),
    [args.join("/"), at, Boolean(whole)],
  );
  if (error) return html`<p class="error">${error}</p>`;
  if (!whole) return html`<p class="loading">…</p>`;
  const r = whole.replay;
  const pos = position && position.position;
  return html`<section class="replay" data-step=${pos ? pos.step : ""} data-moves=${total}>
    <h2>Replay · ${title(r.game)} <small>${r.mode}${r.date ? ` ${r.date}` : ""}${r.player ? ` · ${r.player}` : ""}</small></h2>
    <p data-assisted=${r.assisted ? "1" : "0"}>${outcome(r)} · ${r.foundation}/${r.total} · ${plural(r.moves, "move")}${assistedNote(r)}${r.seed !== null && r.seed !== undefined ? ` · seed ${String(r.seed)}` : ""}</p>
    <div class="stepper">
      <button data-do="first" onClick=${() => setStep(0)} disabled=${at === 0}>⏮</button>
      <button data-do="back" onClick=${() => setStep(Math.max(0, at - 1))} disabled=${at === 0}>◀</button>
      <input type="range" data-field="step" min="0" max=${total} value=${at} onInput=${(e) => setStep(Number(e.target.value))} aria-label="step" />
      <button data-do="forward" onClick=${() => setStep(Math.min(total, at + 1))} disabled=${at === total}>▶</button>
      <button data-do="last" onClick=${() => setStep(total)} disabled=${at === total}>⏭</button>
      <span>step ${at} of ${total}${pos && pos.move ? ` · ${formatMove(pos.move)}` : ""}</span>
    </div>
    ${pos ? html`<div data-status=${pos.status}><${StaticBoard} view=${pos.view} move=${pos.move} /></div>` : html`<p class="loading">…</p>`}
  </section>`;
}

// -- stats and history --------------------------------------------------------

export function Stats({ player }) {
  const [answer, error] = useAsk(() => conn.call("stats", player ? { player } : {}), [player]);
  if (error) return html`<p class="error">${error}</p>`;
  if (!answer) return html`<p class="loading">…</p>`;
  const row = (name, s) => html`<tr>
    <td>${name}</td><td>${s.played}</td><td>${s.won}</td>
    <td>${s.win_pct === null ? "–" : `${Math.round(s.win_pct)}%`}</td>
    <td>${s.best_moves ?? "–"}</td><td>${clock(s.best_time_ms)}</td>
    <td>${s.daily_won}/${s.daily_played}</td><td>${s.streak} (best ${s.best_streak})</td>
  </tr>`;
  return html`<section class="stats">
    <h2>Statistics · ${answer.player}</h2>
    <table>
      <thead><tr><th></th><th>played</th><th>won</th><th>win %</th><th>best moves</th><th>best time</th><th>dailies won</th><th>streak</th></tr></thead>
      <tbody>
        ${row("all games", answer.overall)}
        ${Object.entries(answer.games).map(([slug, s]) => row(title(slug), s))}
      </tbody>
    </table>
    <div class="days" aria-label="the last 30 days">
      ${answer.days.map((d) => html`<span class="day" title=${`${d.date}: ${d.won} won, ${d.lost} lost`} style=${{ height: `${4 + 6 * (d.won + d.lost)}px` }}></span>`)}
    </div>
  </section>`;
}

export function History() {
  const [pages, setPages] = useState([]);
  const [cursor, setCursor] = useState(undefined);
  const [error, setError] = useState("");
  const more = async (from) => {
    try {
      const reply = await conn.call("my_games", { limit: 30, cursor: from || undefined });
      setPages((p) => [...p, ...reply.games]);
      setCursor(reply.cursor);
    } catch (err) {
      setError(err.message);
    }
  };
  useEffect(() => {
    more(null);
  }, []);
  const resume = async (id) => go("game", id);
  return html`<section class="history">
    <h2>History</h2>
    ${error ? html`<p class="error">${error}</p>` : ""}
    <table>
      <thead><tr><th>game</th><th>mode</th><th>result</th><th>moves</th><th>time</th><th></th></tr></thead>
      <tbody>
        ${pages.map(
          (g) => html`<tr data-history=${g.game_id}>
            <td>${title(g.game)}</td><td>${g.mode}${g.date ? ` ${g.date}` : ""}</td>
            <td data-assisted=${g.assisted ? "1" : "0"}>${outcome(g)} · ${g.foundation}/${g.total}${assistedNote(g)}</td><td>${g.moves}</td><td>${clock(g.time_ms)}</td>
            <td>${g.status === "playing"
              ? html`<button onClick=${() => resume(g.game_id)}>resume</button>`
              : html`<button onClick=${() => go("replay", g.game_id)}>replay</button>`}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${cursor ? html`<button onClick=${() => more(cursor)}>more</button>` : ""}
  </section>`;
}

// -- friends ------------------------------------------------------------------

export function Friends() {
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [answer, error, again] = useAsk(() => conn.call("friends", {}), []);
  const add = async (event) => {
    event.preventDefault();
    try {
      const reply = await conn.call("friend_add", { name: name.trim() });
      setNote(reply.added ? `you follow ${reply.friend}` : `you followed ${reply.friend} already`);
      setName("");
      again();
    } catch (err) {
      setNote(err.message);
    }
  };
  const remove = async (who) => {
    await conn.call("friend_remove", { name: who }).catch(() => {});
    again();
  };
  return html`<section class="friends">
    <h2>Friends</h2>
    <form onSubmit=${add}>
      <input data-field="friend" value=${name} onInput=${(e) => setName(e.target.value)} placeholder="a player's name" />
      <button data-do="friend-add">Follow</button> <span>${note}</span>
    </form>
    ${error ? html`<p class="error">${error}</p>` : ""}
    ${answer
      ? html`<ul>
          ${answer.friends.map(
            (f) => html`<li data-friend=${f.player}>
              <strong>${f.player}</strong>
              ${Object.entries(f.today).map(([slug, g]) => html` <span class="today" data-assisted=${g.assisted ? "1" : "0"}>${title(slug)}: ${g.status === "playing" ? "in play" : `${outcome(g)}${assistedNote(g)}`}</span>`)}
              <button class="link" onClick=${() => go("stats", f.player)}>stats</button>
              <button class="link" onClick=${() => remove(f.player)}>unfollow</button>
            </li>`,
          )}
        </ul>`
      : ""}
  </section>`;
}

// -- races --------------------------------------------------------------------

function RacePanel({ race }) {
  // The race's creator may end a running race, and drop a member who is away
  // (the server refuses anyone else, and a member who is here).
  const me = app.account && app.account.player;
  const creator = race.creator === me && race.status !== "finished";
  const act = (op, params, ask) => {
    if (window.confirm(ask)) conn.call(op, { race_id: race.race_id, ...params }).catch((e) => window.alert(e.message));
  };
  return html`<aside class="race-panel" data-race-status=${race.status}>
    <h3>Race ${race.code} · ${race.status}${race.watchers ? ` · ${plural(race.watchers, "spectator")}` : ""}</h3>
    ${race.seed_chosen ? html`<p class="note">the deal's seed was chosen by ${race.creator}</p>` : ""}
    <ol>
      ${race.players.map(
        (p) => html`<li data-member=${p.player} class=${p.away ? "away" : ""}>
          <strong>${p.player}</strong> ${p.status}${p.place ? ` · place ${p.place}` : ""} · ${p.foundation}/${p.total} · ${plural(p.moves, "move")}
          ${p.out ? ` (${p.out.replace(/_/g, " ")})` : ""}${p.away ? " · away" : ""}
          ${creator && p.away && p.player !== me
            ? html` <button data-do="race-drop" onClick=${() => act("race_drop", { player: p.player }, `Drop ${p.player}? Their game is given up (lost: dropped); a daily attempt leaves the race and plays on as their daily.`)}>Drop</button>`
            : ""}
        </li>`,
      )}
    </ol>
    ${creator && race.status === "running"
      ? html`<button data-do="race-end" onClick=${() => act("race_end", {}, "End the race now? Every game still in play is given up (lost: race ended); a member's daily attempt leaves the race and plays on as their daily.")}>End race</button>`
      : ""}
  </aside>`;
}

export function Race({ code }) {
  const [error, setError] = useState("");
  const [now, setNow] = useState(Date.now());
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
  if (!race) return html`<p class="loading">joining race ${code}…</p>`;
  const me = app.account && app.account.player;
  const link = `${location.origin}/#race/${race.code}`;
  const leave = async () => {
    const what =
      race.status === "running"
        ? "Leave the race? Your game stays yours to finish, but no longer counts in the race."
        : "Leave the race's lobby?";
    if (!window.confirm(what)) return;
    await conn.call("race_leave", { race_id: race.race_id }).catch(() => {});
    update({ race: null, game: null });
    go("home");
  };
  const game = app.game && app.game.state.mode === "race" ? app.game : null;
  if (game && (race.status === "running" || race.status === "finished")) {
    return html`<${Board}
      game=${game}
      titles=${app.titles}
      onLeave=${leave}
      onRules=${() => {}}
      side=${html`<div><${RacePanel} race=${race} />${race.status === "finished" ? html`<button data-do="rematch" onClick=${() => rematch(race)}>Rematch</button>` : ""}</div>`}
    />`;
  }
  const left = race.status === "countdown" ? Math.max(0, Math.ceil((race.starts_at - now) / 1000)) : null;
  return html`<section class="race" data-race=${race.code} data-race-status=${race.status}>
    <h2>Race · ${title(race.game)}</h2>
    <p>Send this link: <a href=${link} data-race-link=${link}>${link}</a></p>
    ${left !== null ? html`<p class="countdown">starting in ${left}…</p>` : ""}
    <${RacePanel} race=${race} />
    ${race.status === "lobby" && race.creator === me
      ? html`<button class="primary" data-do="race-start" onClick=${() => conn.call("race_start", { race_id: race.race_id }).catch((e) => setError(e.message))}>Start</button>`
      : race.status === "lobby"
        ? html`<p>Waiting for ${race.creator} to start…</p>`
        : ""}
    ${race.status === "finished" ? html`<button data-do="rematch" onClick=${() => rematch(race)}>Rematch</button>` : ""}
    <button data-do="race-leave" onClick=${leave}>Leave</button>
  </section>`;
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

// -- challenges ---------------------------------------------------------------

export function Challenge({ code }) {
  const [answer, error, reload] = useAsk(() => conn.call("challenge", { code }), [code]);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState("");
  if (error) return html`<p class="error">${error}</p>`;
  if (!answer) return html`<p class="loading">challenge ${code}…</p>`;
  const c = answer.challenge;
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
    if (!window.confirm("Close this challenge? Nobody can play it any more, its results are final (a game still in play counts nowhere), and its deal's number is shown to everyone who played it.")) return;
    setFailed("");
    try {
      await conn.call("challenge_close", { code: c.code });
      reload();
    } catch (err) {
      setFailed(err.message);
    }
  };
  const day = (ms) => new Date(Number(ms)).toISOString().slice(0, 16).replace("T", " ");
  const waiting = c.opens !== null && c.opens !== undefined && !c.closed;
  return html`<section class="challenge" data-challenge=${c.code} data-closed=${c.closed ? "1" : "0"}>
    <h2>Challenge ${c.code} · ${title(c.game)}</h2>
    <p>by ${c.creator}${c.seed_chosen ? " · the deal's seed was chosen by a player" : ""}${" · "}${c.closed ? "closed: its results are final" : `open until ${day(c.expires)} UTC`}</p>
    ${waiting ? html`<p class="note" data-opens="1">It opens to players at ${day(c.opens)} UTC, when the day of its daily is over.</p>` : ""}
    ${c.seed_known ? html`<p class="note" data-seed-known="1">Its creator could see this deal's number before playing it: their result ranks apart.</p>` : ""}
    ${c.seed_public ? html`<p class="note" data-seed-public="1">This deal's number is public (a past daily's, a race's or another challenge's deal): any result on it may have been worked out in advance.</p>` : ""}
    ${c.seed !== null && c.seed !== undefined ? html`<p>Deal ${String(c.seed)}</p>` : ""}
    <p>Share: <code>${location.origin}/#challenge/${c.code}</code></p>
    ${c.results.length
      ? html`<table class="results"><tr><th>#</th><th>player</th><th>result</th><th>cards</th><th>moves</th><th>time</th></tr>
          ${c.results.map(
            (r) => html`<tr data-player=${r.player}><td>${r.rank === null || r.rank === undefined ? "–" : r.rank}</td><td>${r.player}${r.mark ? " (mark)" : ""}</td>
              <td>${outcome(r)}${assistedNote(r)}${r.seed_known ? " · seed known: not ranked" : ""}</td><td>${r.foundation}/${r.total}</td>
              <td>${r.moves}</td><td>${clock(r.time_ms)}</td></tr>`,
          )}</table>`
      : html`<p>No result yet.</p>`}
    ${c.playing.length ? html`<p>Playing now: ${c.playing.join(", ")}</p>` : ""}
    ${mine
      ? html`<p>Your result is the mark to beat.</p>`
      : c.closed && !c.game_id
        ? ""
        : html`<button class="primary" data-do="challenge-play" disabled=${busy || (waiting && !c.game_id)} onClick=${play}>
          ${c.game_id ? "Back to your game" : "Play this deal"}</button>`}
    ${c.creator === me && !c.closed ? html`<button data-do="challenge-close" onClick=${close}>Close the challenge</button>` : ""}
    ${failed ? html`<p class="error">${failed}</p>` : ""}
  </section>`;
}

// -- watching a race ----------------------------------------------------------

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
  if (!w) return html`<p class="loading">watching race ${code}…</p>`;
  const race = w.race;
  return html`<section class="watch" data-watch=${race.code} data-race-status=${race.status}>
    <h2>Watching race ${race.code} · ${title(race.game)}</h2>
    <${RacePanel} race=${race} />
    ${race.players.map((p) => {
      const state = w.boards[p.player];
      return html`<div class="watched" data-member-board=${p.player}>
        <h3>${p.player} · ${p.status} · ${p.foundation}/${p.total} · ${plural(p.moves, "move")}</h3>
        ${!state
          ? html`<p>not dealt yet</p>`
          : state.view
            ? html`<${StaticBoard} view=${state.view} />`
            : html`<p class="note" data-held-back="1">cards shown once every member's game is over (while anybody plays, no spectator sees a card: all play the same deal)</p>`}
      </div>`;
    })}
  </section>`;
}
