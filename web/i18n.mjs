// The page's words in its language, from the one catalogue (protocol/locale, compiled
// by `python -m tools.i18n` to i18n/LANG.json; docs/i18n.md). lang.js picked the
// language and started the fetch before the modules loaded; this module waits for it
// (a top-level await: every module that makes words imports this one, so no word is
// made before the catalogue is here, and none shows in English first).
//
// The sources mark a message as gettext does, so `python -m tools.i18n extract`
// collects it (Babel's JavaScript extractor): `_("Deal")`, `N_("Deal")` (marked here,
// said later), `ngettext("{n} move", "{n} moves", n)`; `{name}` is a parameter, never a
// template literal's `${…}`. English is the message id: the English catalogue leaves a
// plain message empty, and the page says the id.

export const LANGS = ["en", "ru"];
// each language in its own name (the language setting shows them so)
export const LANG_NAMES = { en: "English", ru: "Русский" };
const KEY = "pasyans.lang";

function picked() {
  if (LANGS.includes(window.pasyansLang)) return window.pasyansLang;
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  return LANGS.includes(saved) ? saved : "en";
}

export const lang = picked();
document.documentElement.lang = lang;

async function load() {
  try {
    const loaded = await (window.pasyansCatalogue || fetch(`/i18n/${lang}.json`).then((r) => (r.ok ? r.json() : null)));
    if (loaded && loaded.messages) return loaded;
  } catch {
    // no catalogue (offline without a cache): the page says its English words
  }
  return { messages: {}, plural: {} };
}

const catalogue = await load();
const rules = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

// Remember the player's language and show the page in it.
export function setLang(next) {
  if (!LANGS.includes(next) || next === lang) return;
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // a private window: for this page only
  }
  location.reload();
}

// A plain message in the page's language, its `{name}` parameters filled.
export function _(msgid, params = null) {
  const text = catalogue.messages[msgid];
  return fill(typeof text === "string" && text ? text : msgid, params);
}

// A message marked for the catalogue, said later with _(…).
export const N_ = (msgid) => msgid;

// A message that says a number: the language's plural form of it (Russian has three:
// 1 ход, 2 хода, 5 ходов), `{n}` the number as the language writes it.
export function ngettext(singular, plural, n, params = null) {
  const forms = catalogue.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const form = forms[catalogue.plural[rules.select(n)] ?? forms.length - 1];
    if (form) text = form;
  }
  return fill(text, { n, ...(params || {}) });
}

// Keyed message `key` (error.*, pile.*, action.*, info.*) with its parameters, or
// `fallback` (the server's English words) when the catalogue lacks the key.
export function say(key, params = {}, fallback = "") {
  const text = key && catalogue.messages[key];
  if (typeof text !== "string") return fallback || key || "";
  return fill(text, params);
}

export const known = (key) => typeof catalogue.messages[key] === "string";

const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)\}/g;

// the games' titles by slug (the `games` reply): a `{game}` parameter (a refusal names
// the slug) is said as the title in the page's language
let titles = {};
export function knowTitles(bySlug) {
  titles = bySlug || {};
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(PLACEHOLDER, (whole, name) => (name in params ? value(name, params[name]) : whole));
}

// A parameter as words: seconds as a duration, a count `n` as the language writes it,
// a card as rank and suit.
function value(name, v) {
  if (v === null || v === undefined) return "";
  if (name === "seconds" && typeof v === "number") return duration(v);
  if (name === "n" && typeof v === "number") return number(v);
  if (name === "card" && typeof v === "string") return cardText(v);
  if (name === "game" && titles[v]) return titles[v][`title_${lang}`] || titles[v].title_en || v;
  return String(v);
}

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const cardText = (code) => (/^[A2-9TJQK][SHDC]$/.test(code) ? (code[0] === "T" ? "10" : code[0]) + SUIT_SYMBOLS[code[1]] : code);

// A number of seconds as words: "33 minutes", "33 минуты" (never a float).
export function duration(seconds) {
  const s = Math.max(1, Math.round(Number(seconds) || 0));
  const [n, unit] = s < 90 ? [s, "second"] : s < 90 * 60 ? [Math.round(s / 60), "minute"] : [Math.round(s / 3600), "hour"];
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(n);
}

export const number = (n) => numbers.format(n);

// A day ("2026-11-28") as the language writes it: "Nov 28, 2026", "28 нояб. 2026 г.".
export function date(day, options = { dateStyle: "medium" }) {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? String(day) : new Intl.DateTimeFormat(lang, { ...options, timeZone: "UTC" }).format(d);
}

// A month ("2026-11") as the language writes it: "November 2026", "ноябрь 2026 г.".
export const month = (ym) => date(`${ym}-01`, { month: "long", year: "numeric" });

// A moment (ms since the epoch) as day and time, UTC: "Nov 28, 00:00".
export function moment(ms) {
  const options = { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" };
  return new Intl.DateTimeFormat(lang, options).format(new Date(Number(ms)));
}

// What a pile of the view is called (its `name` and `n`): form "" (column 3), "from"
// (from column 3), "to" (to column 3) or "acc" (as an action's object: "колонку 3").
// A pile the server names nothing: its label, else its id.
export function pile(p, form = "") {
  if (!p) return "";
  if (typeof p.name !== "string" || !p.name) return String(p.label || p.id || "");
  return say(form ? `${p.name}.${form}` : p.name, { n: p.n }, String(p.label || p.id || ""));
}

// A move as a sentence: "Move the 5♦ from your hand to foundation 1", "Pick up
// column 1", "Deal" (protocol/i18n.py Words.move). `piles` are the view's; `card`
// false: the piles are no longer as they were before the move (say "a card").
export function move(m, piles = [], { card: withCard = true } = {}) {
  const byId = new Map(piles.map((p) => [String(p.id), p]));
  if ("action" in m) {
    const params = Object.entries(m).filter(([k]) => k !== "action");
    const said = {};
    for (const [k, v] of params) {
      said[k] = pile(byId.get(String(v)), "acc") || String(v);
      said[`${k}_from`] = pile(byId.get(String(v)), "from") || String(v);
    }
    const names = params.map(([k]) => k).sort();
    const given = names.filter((k) => m[k] !== null && m[k] !== undefined);
    const key = given.length === names.length ? `action.${m.action}` : `action.${m.action}.${given.join("_")}`;
    const plain = m.action.replace(/_/g, " ");
    return say(key, said, plain[0].toUpperCase() + plain.slice(1));
  }
  const src = byId.get(String(m.from));
  const dst = byId.get(String(m.to));
  const cards = (withCard && src && src.cards) || [];
  const index = m.index;
  let card = Number.isInteger(index) && index >= 0 && index < cards.length ? cards[index] : null;
  if ((index === null || index === undefined) && cards.length) card = cards[cards.length - 1];
  const ends = { from: pile(src, "from") || String(m.from), to: pile(dst, "to") || String(m.to) };
  if (typeof card === "string" && card !== "??") return say("move.card", { card, ...ends }, `${m.from} → ${m.to}`);
  return say("move.a_card", ends, `${m.from} → ${m.to}`);
}
