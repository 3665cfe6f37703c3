// The rules pages' Markdown (docs/games/*.md, as the `rules` op sends it) drawn as
// elements: headings, paragraphs, lists, tables, > quotations, **strong**, *emphasis*
// and `code`. Only that much Markdown, and never as HTML: every piece of text stays
// text; in an English page Russian is marked lang="ru", in a Russian page English
// (a title, a book's name) lang="en".

import { html } from "./vendor/preact-htm.mjs";

const INLINE = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)/;

function inline(text) {
  return text.split(INLINE).map((part) => {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) return html`<strong>${inline(part.slice(2, -2))}</strong>`;
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return html`<code>${part.slice(1, -1)}</code>`;
    if (part.startsWith("*") && part.endsWith("*") && part.length > 2) return html`<em>${inline(part.slice(1, -1))}</em>`;
    return marked(part);
  });
}

// the language of the page being drawn (Markdown draws one page at a time)
let pageLang = "en";

// a run of Russian (Cyrillic letters and what lies between them: spaces, punctuation,
// «quotes») — marked lang="ru" so a screen reader speaks it in Russian
const RUSSIAN = /(«?[\u0400-\u04ff](?:[^a-zA-Z"()]*[\u0400-\u04ff»])?)/;

// a run of English words (two letters or more: a card's "K" is no word)
const ENGLISH = /([A-Za-z]{2,}(?:[\s'’,-]+[A-Za-z]{2,})*)/;

function marked(text) {
  const [run, other] = pageLang === "ru" ? [ENGLISH, "en"] : [RUSSIAN, "ru"];
  if (!run.test(text)) return text;
  return text.split(run).map((part, i) => (i % 2 ? html`<span lang=${other}>${part}</span>` : part));
}

const cells = (line) => line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());

function block(lines, key) {
  const heading = /^(#{1,4})\s+(.*)$/.exec(lines[0]);
  if (heading && lines.length === 1) {
    const tag = `h${Math.min(heading[1].length + 2, 6)}`; // under the dialog's own h2
    return html`<${tag} key=${key}>${inline(heading[2])}</${tag}>`;
  }
  if (lines.every((line) => line.trim().startsWith(">"))) {
    // a quotation (the seed's own words, «…»): its lines are Markdown again
    const inner = lines.map((line) => line.trim().replace(/^>\s?/, ""));
    return html`<blockquote key=${key}>${block(inner.filter((line) => line.trim()), 0)}</blockquote>`;
  }
  if (lines.every((line) => line.trim().startsWith("|"))) {
    const rows = lines.filter((line) => !/^\s*\|[\s:|-]+\|\s*$/.test(line)).map(cells);
    return html`<div key=${key} class="scroll-x"><table>
      <thead><tr>${rows[0].map((cell) => html`<th>${inline(cell)}</th>`)}</tr></thead>
      <tbody>${rows.slice(1).map((row) => html`<tr>${row.map((cell) => html`<td>${inline(cell)}</td>`)}</tr>`)}</tbody>
    </table></div>`;
  }
  if (/^\s*[-*]\s/.test(lines[0])) {
    const items = [];
    for (const line of lines) {
      if (/^\s*[-*]\s/.test(line)) items.push(line.replace(/^\s*[-*]\s+/, ""));
      else items[items.length - 1] += ` ${line.trim()}`;
    }
    return html`<ul key=${key}>${items.map((item) => html`<li>${inline(item)}</li>`)}</ul>`;
  }
  return html`<p key=${key}>${inline(lines.map((line) => line.trim()).join(" "))}</p>`;
}

export function Markdown({ text, lang = "en" }) {
  pageLang = lang;
  const blocks = text.split(/\n\s*\n/).map((b) => b.split("\n").filter((line) => line.trim()));
  return html`<div class="markdown">${blocks.filter((b) => b.length).map((b, i) => block(b, i))}</div>`;
}
