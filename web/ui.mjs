// Small pieces every screen uses: a game's title (its Russian name marked as Russian),
// a request's answer as state, a labelled game picker.

import { html, useEffect, useState } from "./vendor/preact-htm.mjs";
import { lang, LANG_NAMES, LANGS, setLang } from "./i18n.mjs";
import { app } from "./store.mjs";
import { W } from "./words.mjs";

// "Косынка (Klondike)": the Russian title first, in lang="ru", the English one beside
// it in lang="en" (whichever the page's language)
export function Title({ slug, english = true }) {
  const t = app.titles[slug] || {};
  if (!t.title_ru) return html`<span>${slug}</span>`;
  return html`<span class="title"><span lang="ru">${t.title_ru}</span>${english && t.title_en ? html` <span class="en" lang="en">(${t.title_en})</span>` : ""}</span>`;
}

// a game's titles in a <select>'s option (plain text, one lang): the Russian title, and
// in English the English one beside it
export const optionTitle = (g) => (lang === "ru" || !g.title_en ? g.title_ru : `${g.title_ru} (${g.title_en})`);

// [answer, error, again]: the answer of `ask()` (a promise), asked again when `deps`
// change or `again()` is called
export function useAsk(ask, deps) {
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState("");
  const [round, setRound] = useState(0);
  useEffect(() => {
    let alive = true;
    setError("");
    ask()
      .then((reply) => alive && setAnswer(reply))
      .catch((err) => alive && setError(err.message));
    return () => {
      alive = false;
    };
  }, [...deps, round]);
  return [answer, error, () => setRound((n) => n + 1)];
}

// "Language" in every other language too, each marked with its lang (a player who
// cannot read the page's language still finds the setting)
const LANGUAGE = { en: "Language", ru: "Язык" };

// The language setting: each language in its own name; a choice is remembered and
// the page shows itself again in it (i18n.mjs setLang).
export function LangChoice() {
  const others = LANGS.filter((l) => l !== lang);
  return html`<fieldset class="langs" data-field="lang">
    <legend>${W.language}${others.map((l) => html` · <span lang=${l}>${LANGUAGE[l]}</span>`)}</legend>
    ${LANGS.map(
      (l) => html`<label class="lang-choice">
        <input type="radio" name="lang" value=${l} data-lang=${l} checked=${l === lang} onChange=${() => setLang(l)} />
        <span lang=${l}>${LANG_NAMES[l]}</span>
      </label>`,
    )}
  </fieldset>`;
}

// a <select> of every game, with its label
export function GamePicker({ slug, onPick, field = "game", label = W.leaderboard.game }) {
  return html`<label class="field">${label}
    <select data-field=${field} value=${slug} onChange=${(e) => onPick(e.target.value)}>
      ${app.games.map((g) => html`<option value=${g.slug} lang="ru">${optionTitle(g)}</option>`)}
    </select>
  </label>`;
}
