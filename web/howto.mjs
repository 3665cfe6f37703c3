// A game's how-to, shown over its board the first time a player opens it: three steps
// taken from its own rules page (the `rules` op, in the page's language) — what the
// game is (the page's first line), its first rule of play, and how it ends. Skippable;
// once closed it does not show again for that game (store.mjs prefs.howToSeen).

import { html, useEffect, useState } from "./vendor/preact-htm.mjs";
import { lang } from "./i18n.mjs";
import { prefs } from "./store.mjs";
import { W } from "./words.mjs";

// the rules' sections by their heading, in both languages the rules are written in
const PLAY = /^(Play|Игра)$/;
const END = /^(The end|Конец)$/;
// characters a step may have: its first sentences up to this many
const LONGEST = 230;

// Markdown's inline marks and pile codes (`FA-S`) taken out: words only
function plain(text) {
  return text
    .replace(/\(([^()]*`[^()]*)\)/g, "") // "(`FA-S FA-H`)": a parenthesis of codes
    .replace(/`[^`]*`/g, "")
    .replace(/\*\*?|__?/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/([:;])\s+-\s+/g, "$1 ") // a list inside an item: its items one after another
    .replace(/\s+-\s+/g, "; ")
    .replace(/\s+([,.;:])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

// the first sentences of `text`, no longer than LONGEST (cut at a sentence's end)
function sentences(text) {
  const parts = text.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) || [text];
  let out = "";
  for (const part of parts) {
    if (out && (out + part).length > LONGEST) break;
    out += part;
  }
  out = out.trim();
  if (out.length > LONGEST) {
    // one long sentence: up to its last clause that fits (a ";" or ":" before LONGEST)
    const cut = Math.max(out.lastIndexOf(";", LONGEST), out.lastIndexOf(":", LONGEST));
    if (cut > 40) out = out.slice(0, cut);
  }
  out = out.replace(/[;:,]$/, "");
  return /[.!?»"]$/.test(out) ? out : `${out}.`;
}

// the three steps of a rules page (Markdown), or null when it has not the usual parts
export function steps(markdown) {
  const blocks = markdown.split(/\n\s*\n/).map((b) => b.trim());
  const sections = [];
  let intro = null;
  for (const block of blocks) {
    const head = /^##\s+(.*)$/.exec(block.split("\n")[0]);
    if (head) sections.push({ name: head[1].trim(), blocks: [block.split("\n").slice(1).join("\n").trim()].filter(Boolean) });
    else if (sections.length) sections[sections.length - 1].blocks.push(block);
    else if (!block.startsWith("#") && !block.startsWith("*") && intro === null) intro = block;
  }
  const first = (re) => {
    const section = sections.find((s) => re.test(s.name));
    if (!section || !section.blocks.length) return null;
    const block = section.blocks[0];
    const item = block.startsWith("- ") ? block.split(/\n- /)[0].slice(2) : block;
    return sentences(plain(item.replace(/\n\s*/g, " ")));
  };
  const found = [intro && sentences(plain(intro.replace(/\n/g, " "))), first(PLAY), first(END)];
  return found.every(Boolean) ? found : null;
}

export function HowTo({ game, conn, onClose }) {
  const [shown, setShown] = useState(null);
  useEffect(() => {
    let alive = true;
    conn
      .call("rules", { game, lang })
      .then((r) => alive && setShown(steps(r.text) || []))
      .catch(() => alive && setShown([]));
    return () => {
      alive = false;
    };
  }, [game]);
  const close = () => {
    prefs.seeHowTo(game);
    onClose();
  };
  if (shown === null || !shown.length) return "";
  return html`<aside class="howto" role="dialog" aria-labelledby="howto-title" data-howto=${game}>
    <h2 id="howto-title">${W.howTo.title}</h2>
    <ol>${shown.map((step) => html`<li>${step}</li>`)}</ol>
    <div class="howto-actions">
      <button class="primary" data-do="howto-play" onClick=${close}>${W.howTo.play}</button>
      <button data-do="howto-skip" onClick=${close}>${W.howTo.skip}</button>
    </div>
  </aside>`;
}
