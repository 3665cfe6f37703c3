// The page's one store: what every screen reads (`app`), `update` to change it (every
// subscriber redraws), and the player's preferences kept in localStorage. It imports
// nothing of the page: the route, the session and the screens import it.

const ACCOUNT_KEY = "pasyans.account";

// the account this browser keeps (another tab may have changed it: a new token)
export function loadAccount() {
  try {
    const account = JSON.parse(localStorage.getItem(ACCOUNT_KEY) || "null");
    return account && account.token ? account : null;
  } catch (err) {
    return null;
  }
}

export function saveAccount(account) {
  if (account) localStorage.setItem(ACCOUNT_KEY, JSON.stringify(account));
  else localStorage.removeItem(ACCOUNT_KEY);
}

export const app = {
  account: loadAccount(),
  signedIn: false,
  titles: {}, // slug → {slug, title_ru, title_en, …} (the `games` reply)
  games: [],
  daily: null, // the last `daily` reply of today
  route: { name: "home", args: [] }, // set by route.mjs
  banner: null, // the connection's trouble, in words
  offline: false,
  game: null, // the Game on the board
  race: null, // the race the player is in
  tournament: null, // the tournament shown (issue 51)
  tournamentNote: null, // the server's word on its last tournament_play (e.g. every deal played)
  watching: null, // {race, boards}: a race watched
  opens: 0, // how many times the connection opened
  startWhenReady: {}, // slug → true: open that daily as soon as it is certified
  notice: null, // a message for the player on the home screen (a refused start)
  banned: null, // the operators banned this account: their words (issue 49)
  unread: 0, // the inbox's unread items (the navigation shows the count)
  news: null, // the last invite, in words, under the navigation until seen
  playChallenge: null, // a challenge whose link was opened before signing in: played once in
};

const listeners = new Set();

// subscribe(fn): fn() after every update; returns the unsubscribe
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function update(patch = {}) {
  Object.assign(app, patch);
  for (const fn of listeners) fn();
}

// The player's choices, remembered on this device.
function flag(key, fallback = false) {
  return {
    get: () => {
      const value = localStorage.getItem(key);
      return value === null ? fallback : value === "1";
    },
    set: (on) => localStorage.setItem(key, on ? "1" : "0"),
  };
}

const fourColour = flag("pasyans.fourColour");
const safeAfter = flag("pasyans.safeAfter", true);
const sound = flag("pasyans.sound", true);
const haptics = flag("pasyans.haptics", true);
const howTo = flag("pasyans.howTo", true);
const HOWTO_SEEN = "pasyans.howToSeen";
const tapHome = flag("pasyans.tapHome", true);
export const CARD_BACKS = ["blue", "red", "green"];
// the table's felt (style.css :root.felt-*)
export const FELTS = ["green", "blue", "wine", "slate"];

export const prefs = {
  get fourColour() {
    return fourColour.get();
  },
  set fourColour(on) {
    fourColour.set(on);
    update();
  },
  // sounds of the moves (feel.mjs), and a phone's buzz
  get sound() {
    return sound.get();
  },
  set sound(on) {
    sound.set(on);
    update();
  },
  get haptics() {
    return haptics.get();
  },
  set haptics(on) {
    haptics.set(on);
    update();
  },
  // a game's how-to over its board the first time it is opened (howto.mjs)
  get howTo() {
    return howTo.get();
  },
  set howTo(on) {
    howTo.set(on);
    update();
  },
  howToDue(slug) {
    return howTo.get() && !(localStorage.getItem(HOWTO_SEEN) || "").split(" ").includes(slug);
  },
  seeHowTo(slug) {
    const seen = (localStorage.getItem(HOWTO_SEEN) || "").split(" ").filter(Boolean);
    localStorage.setItem(HOWTO_SEEN, [...new Set([...seen, slug])].join(" "));
  },
  // the moves the server calls safe played by themselves after each move (on by default)
  get safeAfter() {
    return safeAfter.get();
  },
  set safeAfter(on) {
    safeAfter.set(on);
    update();
  },
  // a single tap on a card plays it to a foundation that takes it
  get tapHome() {
    return tapHome.get();
  },
  set tapHome(on) {
    tapHome.set(on);
    update();
  },
  get felt() {
    const felt = localStorage.getItem("pasyans.felt");
    return FELTS.includes(felt) ? felt : FELTS[0];
  },
  set felt(felt) {
    localStorage.setItem("pasyans.felt", felt);
    update();
  },
  get cardBack() {
    const back = localStorage.getItem("pasyans.cardBack");
    return CARD_BACKS.includes(back) ? back : CARD_BACKS[0];
  },
  set cardBack(back) {
    localStorage.setItem("pasyans.cardBack", back);
    update();
  },
};
