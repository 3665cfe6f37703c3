// The player's language and the catalogue's keyed messages (protocol/locale, compiled
// by `python -m tools.i18n` to i18n/LANG.json; docs/i18n.md). The language is the one
// the player chose (remembered in localStorage), else the browser's, else English.
// Today the server's errors are said from it; the page's other words are words.mjs's.

const LANGS = ["en", "ru"];
const KEY = "pasyans.lang";

function pick() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(primary)) return primary;
  }
  return "en";
}

export const lang = pick();
document.documentElement.lang = lang;

// Remember the player's language and show the page in it.
export function setLang(next) {
  if (!LANGS.includes(next)) return;
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // a private window: for this page only
  }
  location.reload();
}

// Fetched as the page starts, not awaited (a top-level await would hold back every
// module importing this one, and the page's load handlers with them): an error said
// before it arrives falls back to the server's English words.
let catalogue = { messages: {}, plural: {} };
fetch(`/i18n/${lang}.json`)
  .then((r) => (r.ok ? r.json() : null))
  .then((loaded) => {
    if (loaded) catalogue = loaded;
  })
  .catch(() => {});

// A whole number of seconds as words: "33 minutes", "33 минуты".
export function duration(seconds) {
  const s = Math.max(1, Math.round(Number(seconds) || 0));
  const [n, unit] = s < 90 ? [s, "second"] : s < 90 * 60 ? [Math.round(s / 60), "minute"] : [Math.round(s / 3600), "hour"];
  return new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(n);
}

// Keyed message `key` with its parameters (a `seconds` one as a duration), or
// `fallback` (the server's English words) when the catalogue lacks the key.
export function say(key, params = {}, fallback = "") {
  const text = key && catalogue.messages[key];
  if (typeof text !== "string") return fallback || key || "";
  return text.replace(/\{([a-z_][a-z0-9_]*)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (name === "seconds" && typeof value === "number") return duration(value);
    return value == null ? "" : String(value);
  });
}
