// The web client's shell: the screen for the page's hash (route.mjs), the site's
// navigation, the banner while the connection comes back, the cards' symbols, and the
// service worker that lets the page open offline (and be installed as an app). The
// server holds every rule; this page shows its answers.

import { html, render, useEffect, useState } from "./vendor/preact-htm.mjs";
import { Sprite } from "./cards.mjs";
import { Home } from "./screens/home.mjs";
import { SignIn } from "./screens/signin.mjs";
import { conn, loadGames } from "./session.mjs";
import { app, CARD_BACKS, FELTS, prefs, subscribe, update } from "./store.mjs";
import { W } from "./words.mjs";

// A screen fetched when first shown, not before the first screen (the server preloads
// only what app.mjs imports statically); `warm` fetches it ahead, once the page is up.
function later(load, name) {
  let Screen = null;
  const warm = () => (Screen ? Promise.resolve() : load().then((module) => void (Screen = module[name])));
  function Later(props) {
    const [failed, setFailed] = useState(false);
    const [, ready] = useState(0);
    useEffect(() => {
      if (!Screen) warm().then(() => ready(1), () => setFailed(true));
    }, []);
    if (Screen) return html`<${Screen} ...${props} />`;
    // a module that failed to load stays failed in this page: a new page loads it
    if (failed) {
      return html`<div role="alert" data-load-failed="1"><p class="error">${W.loadFailed}</p><button class="primary" data-do="load-again" onClick=${() => location.reload()}>${W.loadAgain}</button></div>`;
    }
    return html`<p class="loading" role="status">${W.loading}</p>`;
  }
  Later.warm = warm;
  return Later;
}

const GameScreen = later(() => import("./screens/game.mjs"), "GameScreen");
const Race = later(() => import("./screens/race.mjs"), "Race");
const Watch = later(() => import("./screens/race.mjs"), "Watch");
const Challenge = later(() => import("./screens/challenge.mjs"), "Challenge");
const Leaderboard = later(() => import("./screens/leaderboard.mjs"), "Leaderboard");
const Replay = later(() => import("./screens/replay.mjs"), "Replay");
const Stats = later(() => import("./screens/me.mjs"), "Stats");
const History = later(() => import("./screens/me.mjs"), "History");
const Friends = later(() => import("./screens/friends.mjs"), "Friends");
const Inbox = later(() => import("./screens/friends.mjs"), "Inbox");
const Calendar = later(() => import("./screens/calendar.mjs"), "Calendar");
const Account = later(() => import("./screens/account.mjs"), "Account");
const Tournaments = later(() => import("./screens/tournament.mjs"), "Tournaments");
const Tournament = later(() => import("./screens/tournament.mjs"), "Tournament");
const LATER = [
  GameScreen, Race, Watch, Challenge, Leaderboard, Replay, Stats, History, Friends, Inbox, Calendar, Account,
  Tournaments, Tournament,
];

function Nav() {
  const here = (name) => (app.route.name === name ? "page" : undefined);
  return html`<nav class="top" aria-label=${W.nav.label}>
    <a href="#home" class="brand" lang="ru">${W.brand}</a>
    <a href="#home" aria-current=${here("home")}>${W.nav.home}</a>
    <a href="#leaderboard" aria-current=${here("leaderboard")}>${W.nav.leaderboards}</a>
    <a href="#tournaments" aria-current=${here("tournaments") || here("tournament")}>${W.tournament.nav}</a>
    <a href="#history" aria-current=${here("history")}>${W.nav.history}</a>
    <a href="#stats" aria-current=${here("stats")}>${W.nav.stats}</a>
    <a href="#friends" aria-current=${here("friends")}>${W.nav.friends}</a>
    <a href="#inbox" aria-current=${here("inbox")} aria-label=${W.nav.unreadLabel(app.unread)} data-unread=${app.unread}>${W.nav.inbox}${W.nav.unread(app.unread)}</a>
    <a href="#account" class="me" aria-current=${here("account")} aria-label=${W.nav.account(app.account.player)} data-player=${app.account.player}>${app.account.player}</a>
  </nav>`;
}

function Screen() {
  const { name, args } = app.route;
  if (name === "game" && args[0]) return html`<${GameScreen} key=${args[0]} id=${args[0]} />`;
  if (name === "race" && args[0]) return html`<${Race} code=${args[0]} />`;
  if (name === "tournament" && args[0]) return html`<${Tournament} code=${args[0]} />`;
  if (name === "tournaments") return html`<${Tournaments} />`;
  if (name === "challenge" && args[0]) return html`<${Challenge} code=${args[0]} />`;
  if (name === "watch" && args[0]) return html`<${Watch} code=${args[0]} />`;
  if (name === "leaderboard") return html`<${Leaderboard} slug=${args[0] || (app.games[0] || {}).slug} date=${args[1]} />`;
  if (name === "replay") return html`<${Replay} args=${args} />`;
  if (name === "stats") return html`<${Stats} player=${args[0]} />`;
  if (name === "history") return html`<${History} />`;
  if (name === "friends") return html`<${Friends} />`;
  if (name === "inbox") return html`<${Inbox} />`;
  if (name === "calendar") return html`<${Calendar} slug=${args[0]} month=${args[1]} />`;
  if (name === "account") return html`<${Account} />`;
  return html`<${Home} />`;
}

function Body() {
  if (!app.games.length) return html`<main><p class="loading" role="status">${app.offline ? W.net.offlineBody : W.connecting}</p></main>`;
  if (app.account && app.banned) return html`<main><p class="error notice" role="alert" data-banned="1">${app.banned}</p></main>`;
  if (app.account && !app.signedIn) return html`<main><p class="loading" role="status">${W.signingIn}</p></main>`;
  if (!app.account) return html`<${SignIn} />`;
  const news = app.news && app.route.name !== "inbox"
    ? html`<p class="news" role="status" data-news="1">${app.news} · <a href="#inbox" onClick=${() => update({ news: null })}>${W.inbox.see}</a></p>`
    : "";
  return html`<${Nav} />${news}<main><${Screen} /></main>`;
}

function App() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const off = subscribe(() => setTick((n) => n + 1));
    // the first screen up, the other screens are fetched while the player reads it
    const warm = () => LATER.forEach((screen) => screen.warm().catch(() => {}));
    const ask = () => loadGames().then(() => setTimeout(warm, 0), () => setTimeout(ask, 1000));
    ask();
    return off;
  }, []);
  const classes = document.documentElement.classList;
  classes.toggle("four-colour", prefs.fourColour);
  for (const back of CARD_BACKS) classes.toggle(`back-${back}`, prefs.cardBack === back);
  for (const felt of FELTS) classes.toggle(`felt-${felt}`, prefs.felt === felt && felt !== FELTS[0]);
  return html`<${Sprite} />${app.banner ? html`<div class="banner" role="status" data-banner="1">${app.banner}</div>` : ""}<${Body} />`;
}

const root = document.getElementById("app");
root.textContent = ""; // the page's "loading…", which render would keep
render(html`<${App} />`, root);
window.pasyans = { app, conn };

// the shell cached for offline use (sw.js); after the page is up, not before (the page
// may be loaded already: this module runs once the catalogue is here, i18n.mjs)
if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js").catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}
