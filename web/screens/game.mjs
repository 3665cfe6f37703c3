// The board screen of a game (#game/ID): the game from the store, else asked for
// (`resume`); its rules in a dialog.

import { html, useEffect, useRef, useState } from "../vendor/preact-htm.mjs";
import { Board } from "../board.mjs";
import { HowTo } from "../howto.mjs";
import { Markdown } from "../markdown.mjs";
import { go } from "../route.mjs";
import { conn, openGame, start } from "../session.mjs";
import { app, prefs } from "../store.mjs";
import { lang } from "../i18n.mjs";
import { W } from "../words.mjs";

export function Rules({ slug, onClose }) {
  const [text, setText] = useState(null);
  const ref = useRef(null);
  useEffect(() => {
    conn
      .call("rules", { game: slug, lang })
      .then((r) => setText({ text: r.text, lang: r.lang || "en" }))
      .catch((e) => setText({ text: e.message, lang }));
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, [slug]);
  return html`<dialog class="dialog" ref=${ref} aria-labelledby="rules-title" onClose=${onClose}>
    <header class="dialog-head">
      <h2 id="rules-title">${W.rules.title}</h2>
      <button class="close" data-do="rules-close" onClick=${() => ref.current.close()}>${W.rules.close}</button>
    </header>
    <div class="rules" data-loaded=${text === null ? "0" : "1"} lang=${text === null ? undefined : text.lang}>${text === null ? W.loading : html`<${Markdown} text=${text.text} lang=${text.lang} />`}</div>
  </dialog>`;
}

// After a daily: the next of today's dailies (in the catalogue's order) not yet played
// to its end; after any other game, the next game's practice deal. Null after a race.
function nextGame(state) {
  if (state.mode === "race" || state.status === "playing") return null;
  const slugs = app.games.map((g) => g.slug);
  const at = slugs.indexOf(state.game);
  const daily = state.mode === "daily";
  const done = (slug) => {
    const entry = app.daily && app.daily.games && app.daily.games[slug];
    return Boolean(entry && entry.mine && entry.mine.status && entry.mine.status !== "playing");
  };
  for (let k = 1; k < slugs.length; k++) {
    const slug = slugs[(at + k) % slugs.length];
    if (daily && done(slug)) continue;
    const t = app.titles[slug] || {};
    return { title: (lang === "ru" ? t.title_ru : t.title_en) || t.title_ru || slug, go: () => start(slug, daily ? "daily" : "practice") };
  }
  return null;
}

export function GameScreen({ id }) {
  const [rules, setRules] = useState(false);
  const [error, setError] = useState("");
  const [, seen] = useState(0);
  const game = app.game;
  useEffect(() => {
    if (!game || game.state.game_id !== id) {
      conn
        .call("resume", { game_id: id })
        .then((reply) => openGame(reply.state))
        .catch((err) => setError(err.message));
    }
  }, [id]);
  if (!game || game.state.game_id !== id) return html`<p class="loading">${error || W.loading}</p>`;
  const onNew = game.state.mode === "race" ? null : () => start(game.state.game, "practice");
  // the same deal again from its start (a practice or numbered deal: its seed is known)
  const seed = game.state.deal && game.state.deal.seed;
  const again = ["practice", "deal"].includes(game.state.mode) && seed !== null && seed !== undefined;
  const onRestart = again ? () => start(game.state.game, "deal", { seed }) : null;
  return html`
    <${Board} game=${game} titles=${app.titles} onLeave=${() => go("home")} onRules=${() => setRules(true)} onNew=${onNew} onRestart=${onRestart} onNext=${() => nextGame(game.state)} />
    ${rules ? html`<${Rules} slug=${game.state.game} onClose=${() => setRules(false)} />` : ""}
    ${game.playing && prefs.howToDue(game.state.game) ? html`<${HowTo} game=${game.state.game} conn=${conn} onClose=${() => seen((n) => n + 1)} />` : ""}`;
}
