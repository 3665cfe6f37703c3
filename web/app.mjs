// The web client's shell: the connection, the account, the screens by the page's
// hash (#home, #game/ID, #race/CODE, #leaderboard/SLUG, #replay/…, #stats, #history,
// #friends), the banner while the connection comes back. The server holds every
// rule; this page shows its answers.

import { html, render, useEffect, useState } from "./vendor/preact-htm.mjs";
import { Connection, parseSeed, ServerError } from "./net.mjs";
import { Board, Game } from "./board.mjs";
import { Challenge, Friends, History, Leaderboard, Race, Replay, Stats, Watch } from "./screens.mjs";
import { assistedNote, commitment, outcome, plural, utcDate } from "./words.mjs";

const ACCOUNT_KEY = "pasyans.account";
const FOUR_COLOUR_KEY = "pasyans.fourColour";

function loadAccount() {
  try {
    const account = JSON.parse(localStorage.getItem(ACCOUNT_KEY) || "null");
    return account && account.token ? account : null;
  } catch (err) {
    return null;
  }
}

// the page's one store: screens read it, `update` changes it and redraws
export const app = {
  account: loadAccount(),
  signedIn: false,
  titles: {},
  games: [],
  daily: null, // the last `daily` reply of today
  route: parseRoute(location.hash),
  banner: null,
  game: null,
  race: null,
  fourColour: localStorage.getItem(FOUR_COLOUR_KEY) === "1",
  opens: 0,
  startWhenReady: {}, // slug → true: open that daily as soon as it is certified
  notice: null, // a message for the player on the home screen (a refused start)
};
let redraw = () => {};
export function update(patch) {
  Object.assign(app, patch);
  redraw();
}

function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  return { name: parts[0] || "home", args: parts.slice(1) };
}
export function go(...parts) {
  const hash = `#${parts.map(encodeURIComponent).join("/")}`;
  if (location.hash === hash) update({ route: parseRoute(hash) });
  else location.hash = hash;
}
window.addEventListener("hashchange", () => update({ route: parseRoute(location.hash) }));

async function signIn() {
  if (!app.account) return;
  try {
    const reply = await conn.call("auth", { token: app.account.token }, { signIn: true });
    app.account = { ...app.account, player: reply.player, deployment: reply.deployment };
    localStorage.setItem(ACCOUNT_KEY, JSON.stringify(app.account));
    app.signedIn = true;
  } catch (err) {
    if (err instanceof ServerError && err.code === "unauthorized") {
      localStorage.removeItem(ACCOUNT_KEY);
      app.account = null;
      app.signedIn = false;
    }
  }
}

export const conn = new Connection({
  onStatus: (text) => update({ banner: text }),
  onOpen: async () => {
    app.opens += 1;
    await signIn();
    redraw();
    if (app.opens > 1) setTimeout(reconnected, 0);
  },
  onEvent: (event) => {
    if (event.ev === "race" && app.watching && event.race_id === app.watching.race.race_id) {
      const { ev, ...race } = event;
      update({ watching: { ...app.watching, race } });
    } else if (event.ev === "race_board" && app.watching && event.race_id === app.watching.race.race_id) {
      const boards = { ...app.watching.boards, [event.player]: event.state };
      update({ watching: { ...app.watching, boards } });
    } else if (event.ev === "race" && app.race && event.race_id === app.race.race_id) {
      const { ev, ...race } = event;
      update({ race });
      // the race says our game is over (ended, dropped, timed out) while the board
      // still shows it in play: the board fetches it now, not at the next move
      const game = app.game;
      if (game && game.state.mode === "race" && game.playing && myRaceGameOver(race)) game.resume();
    } else if (event.ev === "race_started" && app.race && event.race_id === app.race.race_id) {
      openGame(event.state, { race: true });
    } else if (event.ev === "bye") {
      update({ banner: `The server says goodbye (${event.reason}): reconnecting…` });
    }
  },
});

function myRaceGameOver(race) {
  if (race.status === "finished") return true;
  const me = app.account && app.account.player;
  const row = (race.players || []).find((p) => p.player === me);
  return Boolean(row && (row.status === "won" || row.status === "lost"));
}

// after a reconnection: the game on the board as the server has it (a move whose
// answer was lost is never sent again: the player sees the board and decides)
async function reconnected() {
  if (app.game) {
    await app.game.resume();
    app.game.say("reconnected: the board is as the server has it, play on");
  }
  if (app.race && app.race.code) {
    try {
      const reply = await conn.call("race_join", { code: app.race.code });
      update({ race: reply.race });
    } catch (err) {
      // the race panel keeps the last rows
    }
  }
  redraw();
}

export const parOf = (slug) => {
  const entry = app.daily && app.daily.games && app.daily.games[slug];
  return entry && entry.certified ? entry.par : null;
};

export function openGame(state, { race = false } = {}) {
  const game = new Game(conn, state, { par: parOf });
  game.considerFinish();
  update({ game });
  if (!race) go("game", state.game_id);
}

export async function start(slug, mode, extra = {}) {
  try {
    const reply = await conn.call("start", { game: slug, mode, ...extra });
    update({ notice: null });
    openGame(reply.state);
  } catch (err) {
    if (mode === "daily" && err.error && err.error.preparing) {
      // still being certified: it opens by itself once it is (the home screen asks)
      update({ startWhenReady: { [slug]: true }, notice: null });
      if (app.reloadHome) app.reloadHome();
      return;
    }
    update({ notice: err.message });
  }
}

// -- sign-in ------------------------------------------------------------------

function SignIn() {
  const [name, setName] = useState("");
  const [token, setToken] = useState("");
  const [error, setError] = useState("");
  const register = async (event) => {
    event.preventDefault();
    setError("");
    try {
      const reply = await conn.call("register", { name: name.trim() }, { signIn: true });
      const account = { player: reply.player, token: reply.token, deployment: reply.deployment };
      localStorage.setItem(ACCOUNT_KEY, JSON.stringify(account));
      update({ account, signedIn: true });
    } catch (err) {
      setError(err.message);
    }
  };
  const login = async (event) => {
    event.preventDefault();
    setError("");
    app.account = { token: token.trim() };
    await signIn();
    if (!app.signedIn) setError("the server does not know this token");
    redraw();
  };
  return html`<section class="signin">
    <h1>Пасьянсы <small>pasyans</small></h1>
    <p>Sixteen Russian patience games, a fair daily deal of each, leaderboards and races.</p>
    <form onSubmit=${register}>
      <label>Pick a name (any alphabet: Маша, Ωμέγα, alice)
        <input data-field="name" value=${name} onInput=${(e) => setName(e.target.value)}
          minlength="3" maxlength="20" required autocomplete="nickname" />
      </label>
      <button class="primary" data-do="register">Start playing</button>
    </form>
    <details>
      <summary>I have an account (a token from another device)</summary>
      <form onSubmit=${login}>
        <input data-field="token" value=${token} onInput=${(e) => setToken(e.target.value)} placeholder="token" />
        <button data-do="login">Sign in</button>
      </form>
    </details>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
  </section>`;
}

// -- home ---------------------------------------------------------------------

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
  return html`<span class="countdown">next dailies in ${hh}:${mm}:${ss}</span>`;
}

// "ready in about 40 s" from a daily's `preparing.estimate_ms` ("" when unknown)
export function readyIn(preparing) {
  const ms = preparing && preparing.estimate_ms;
  if (ms === null || ms === undefined) return "";
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 90 ? `ready in about ${seconds} s` : `ready in about ${Math.round(seconds / 60)} min`;
}

function dailyState(entry) {
  if (!entry) return "";
  if (entry.preparing) {
    const p = entry.preparing;
    const facts = [typeof p === "object" && p.tried ? `${plural(p.tried, "deal")} tried` : "", readyIn(p)];
    const known = facts.filter(Boolean).join(", ");
    return `certifying a winnable deal…${known ? ` (${known})` : ""}`;
  }
  if (entry.certified) return `certified winnable · par ${entry.par}`;
  return `not proven winnable; best known line founds ${entry.best_founded} of ${entry.total}`;
}

function Mine({ mine }) {
  if (!mine) return html`<span class="mine none">not played</span>`;
  if (mine.status === "playing") return html`<span class="mine playing">in play · ${plural(mine.moves, "move")}</span>`;
  return html`<span class="mine ${mine.status}" data-assisted=${mine.assisted ? "1" : "0"}>${outcome(mine)} · ${mine.foundation}/${mine.total} · ${plural(mine.moves, "move")}${assistedNote(mine)}</span>`;
}

function Home() {
  const [daily, setDaily] = useState(app.daily);
  const [past, setPast] = useState(null);
  const [checks, setChecks] = useState({});
  const [dealGame, setDealGame] = useState("");
  const [seed, setSeed] = useState("");
  const [error, setError] = useState("");
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
        if (waiting || Object.values(reply.games).some((g) => g.preparing)) timer = setTimeout(load, 3000);
      } catch (err) {
        if (alive) timer = setTimeout(load, 3000);
      }
    };
    load();
    app.reloadHome = () => {
      clearTimeout(timer);
      timer = setTimeout(load, 3000);
    };
    conn.call("daily", { date: utcDate(-1) }).then((reply) => alive && setPast(reply)).catch(() => {});
    return () => {
      alive = false;
      app.reloadHome = null;
      clearTimeout(timer);
    };
  }, []);

  const verify = async (slug, entry) => {
    const mine = await commitment(entry.seed, past.date, slug);
    setChecks((c) => ({ ...c, [slug]: mine === entry.commitment }));
  };
  const verifyAll = async () => {
    for (const [slug, entry] of Object.entries(past.games)) {
      if (entry.seed !== null && entry.seed !== undefined && entry.commitment) await verify(slug, entry);
    }
  };
  const deal = (event) => {
    event.preventDefault();
    const value = parseSeed(seed);
    if (value === null) return setError("a deal number is a whole number from 0 to 2^64 − 1");
    setError("");
    start(dealGame || app.games[0].slug, "deal", { seed: value });
  };
  // Play a daily: at once, or, while it is being certified, as soon as it is ready.
  const playDaily = (slug, entry) => {
    if (!entry || !entry.preparing) return start(slug, "daily");
    // opened as soon as the server has certified it (the home asks every 3 s)
    update({ startWhenReady: app.startWhenReady[slug] ? {} : { [slug]: true } });
  };
  const race = async (slug) => {
    try {
      const reply = await conn.call("race_create", { game: slug });
      update({ race: reply.race, game: null });
      go("race", reply.race.code);
    } catch (err) {
      update({ notice: err.message });
    }
  };

  return html`<section class="home">
    <header class="home-head">
      <h2>Today's dailies <small>${daily ? daily.date : ""}</small></h2>
      <${Countdown} />
      ${daily ? html`<span class="streak">streak: ${plural(daily.streak || 0, "day")}</span>` : ""}
    </header>
    ${app.notice ? html`<p class="error notice" role="alert" data-notice="1">${app.notice}</p>` : ""}
    <ul class="dailies">
      ${app.games.map((g) => {
        const entry = daily && daily.games[g.slug];
        return html`<li data-game=${g.slug} class="daily">
          <div class="names"><strong>${g.title_ru}</strong> <span>${g.title_en}</span></div>
          <div class="facts">
            <span class="cert">${dailyState(entry)}</span>
            ${entry ? html`<${Mine} mine=${entry.mine} />` : ""}
            ${entry && entry.commitment ? html`<code class="commitment" title=${entry.commitment}>${entry.commitment.slice(0, 12)}…</code>` : ""}
          </div>
          <div class="row-actions">
            <button class="primary" data-do="daily" aria-pressed=${entry && entry.preparing ? String(Boolean(app.startWhenReady[g.slug])) : undefined} onClick=${() => playDaily(g.slug, entry)}>
              ${entry && entry.mine
                ? entry.mine.status === "playing" ? "Resume" : "Result"
                : entry && entry.preparing
                  ? app.startWhenReady[g.slug] ? "Opens when ready — cancel" : "Play when ready"
                  : "Play daily"}
            </button>
            <button data-do="practice" onClick=${() => start(g.slug, "practice")}>Practice</button>
            <button data-do="race" onClick=${() => race(g.slug)}>Race</button>
            <button data-do="leaderboard" onClick=${() => go("leaderboard", g.slug)}>Leaderboard</button>
          </div>
        </li>`;
      })}
    </ul>
    <form class="deal" onSubmit=${deal}>
      <label>Deal by number
        <select data-field="deal-game" value=${dealGame} onChange=${(e) => setDealGame(e.target.value)}>
          ${app.games.map((g) => html`<option value=${g.slug}>${g.title_ru} (${g.title_en})</option>`)}
        </select>
        <input data-field="seed" inputmode="numeric" value=${seed} onInput=${(e) => setSeed(e.target.value)} placeholder="e.g. 12345678901234567890" />
      </label>
      <button data-do="deal">Deal</button>
      ${error ? html`<span class="error">${error}</span>` : ""}
    </form>
    ${past
      ? html`<section class="past">
          <h3>Yesterday (${past.date}): seeds revealed</h3>
          <button data-do="verify-all" onClick=${verifyAll}>Verify every commitment</button>
          <table>
            <thead><tr><th>game</th><th>seed</th><th>par</th><th>commitment</th><th></th></tr></thead>
            <tbody>
              ${Object.entries(past.games).map(
                ([slug, entry]) => html`<tr data-past=${slug}>
                  <td>${(app.titles[slug] || {}).title_ru || slug}</td>
                  <td><code>${entry.seed === null || entry.seed === undefined ? "–" : String(entry.seed)}</code></td>
                  <td>${entry.par ?? "–"}</td>
                  <td><code title=${entry.commitment || ""}>${(entry.commitment || "–").slice(0, 12)}</code></td>
                  <td>
                    ${entry.seed !== null && entry.seed !== undefined && entry.commitment
                      ? checks[slug] === undefined
                        ? html`<button data-do="verify" onClick=${() => verify(slug, entry)}>verify</button>`
                        : html`<span class=${checks[slug] ? "ok" : "bad"} data-verified=${checks[slug] ? "yes" : "no"}>${checks[slug] ? "✓ commitment matches" : "✗ commitment does not match"}</span>`
                      : ""}
                    ${entry.certified ? html` <button class="link" onClick=${() => go("replay", slug, past.date)}>par line</button>` : ""}
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        </section>`
      : ""}
  </section>`;
}

// -- account ------------------------------------------------------------------

function Account() {
  const [shown, setShown] = useState(false);
  const signOut = () => {
    if (!window.confirm("Sign out? Keep your token (use this account on another device) to come back.")) return;
    localStorage.removeItem(ACCOUNT_KEY);
    location.hash = "";
    location.reload();
  };
  const fourColour = (on) => {
    localStorage.setItem(FOUR_COLOUR_KEY, on ? "1" : "0");
    update({ fourColour: on });
  };
  return html`<section class="account">
    <h2>${app.account.player}</h2>
    <button data-do="show-token" onClick=${() => setShown(!shown)}>Use this account on another device</button>
    ${shown ? html`<p>Your token (keep it secret; paste it under “I have an account”):</p><pre class="token">${app.account.token}</pre>` : ""}
    <label class="toggle"><input type="checkbox" checked=${app.fourColour} onChange=${(e) => fourColour(e.target.checked)} /> four-colour suits</label>
    <button data-do="sign-out" onClick=${signOut}>Sign out</button>
  </section>`;
}

// -- the shell ------------------------------------------------------------------

function Rules({ slug, onClose }) {
  const [text, setText] = useState("…");
  useEffect(() => {
    conn.call("rules", { game: slug }).then((r) => setText(r.text)).catch((e) => setText(e.message));
  }, [slug]);
  return html`<div class="dialog" role="dialog" aria-label="rules">
    <button class="close" onClick=${onClose}>close</button>
    <pre class="rules">${text}</pre>
  </div>`;
}

function GameScreen({ id }) {
  const [rules, setRules] = useState(false);
  const [error, setError] = useState("");
  const game = app.game;
  useEffect(() => {
    if (!game || game.state.game_id !== id) {
      conn
        .call("resume", { game_id: id })
        .then((reply) => openGame(reply.state))
        .catch((err) => setError(err.message));
    }
  }, [id]);
  if (!game || game.state.game_id !== id) return html`<p class="loading">${error || "loading the game…"}</p>`;
  const again = game.state.mode === "practice" ? () => start(game.state.game, "practice") : null;
  return html`
    <${Board} game=${game} titles=${app.titles} onLeave=${() => go("home")} onRules=${() => setRules(true)} onAgain=${again} />
    ${rules ? html`<${Rules} slug=${game.state.game} onClose=${() => setRules(false)} />` : ""}`;
}

function Nav() {
  return html`<nav class="top">
    <a href="#home" class="brand">Пасьянсы</a>
    <a href="#home">Home</a>
    <a href="#leaderboard">Leaderboards</a>
    <a href="#history">History</a>
    <a href="#stats">Stats</a>
    <a href="#friends">Friends</a>
    <a href="#account" class="me" data-player=${app.account ? app.account.player : ""}>${app.account ? app.account.player : ""}</a>
  </nav>`;
}

function Screen() {
  const { name, args } = app.route;
  if (name === "game" && args[0]) return html`<${GameScreen} key=${args[0]} id=${args[0]} />`;
  if (name === "race" && args[0]) return html`<${Race} code=${args[0]} />`;
  if (name === "challenge" && args[0]) return html`<${Challenge} code=${args[0]} />`;
  if (name === "watch" && args[0]) return html`<${Watch} code=${args[0]} />`;
  if (name === "leaderboard") return html`<${Leaderboard} slug=${args[0] || (app.games[0] || {}).slug} date=${args[1]} />`;
  if (name === "replay") return html`<${Replay} args=${args} />`;
  if (name === "stats") return html`<${Stats} player=${args[0]} />`;
  if (name === "history") return html`<${History} />`;
  if (name === "friends") return html`<${Friends} />`;
  if (name === "account") return html`<${Account} />`;
  return html`<${Home} />`;
}

function App() {
  const [, setTick] = useState(0);
  useEffect(() => {
    redraw = () => setTick((n) => n + 1);
    conn.call("games", {}).then((reply) => {
      const titles = {};
      for (const g of reply.games) titles[g.slug] = g;
      update({ games: reply.games, titles });
    });
  }, []);
  document.documentElement.classList.toggle("four-colour", app.fourColour);
  const body = !app.games.length
    ? html`<p class="loading">connecting…</p>`
    : !app.account || !app.signedIn
      ? app.account && !app.signedIn && conn.online === false
        ? html`<p class="loading">signing in…</p>`
        : app.account && !app.signedIn
          ? html`<p class="loading">signing in…</p>`
          : html`<${SignIn} />`
      : html`<${Nav} /><main><${Screen} /></main>`;
  return html`${app.banner ? html`<div class="banner" role="status" data-banner="1">${app.banner}</div>` : ""}${body}`;
}

render(html`<${App} />`, document.getElementById("app"));
window.pasyans = { app, conn };
