// The cards, drawn here as SVG (no image files): suits and court emblems as symbols
// defined once in the page (`Sprite`), each card an element with its index — rank and
// suit — in the corner that stays visible when it is covered: the top strip in a
// column fanned downwards, the left strip in a row fanned to the right. Courts carry
// an emblem (a crown for the king, a tiara for the queen, a feathered cap for the
// jack); a card face down shows the back the player chose (style.css, `back-*`).

import { html } from "./vendor/preact-htm.mjs";
import { rankText } from "./words.mjs";

const SUIT_SHAPES = {
  S: html`<path d="M50 4C38 26 6 40 6 64c0 17 20 26 37 14-2 9-7 16-15 20h44c-8-4-13-11-15-20 17 12 37 3 37-14C94 40 62 26 50 4z" />`,
  H: html`<path d="M50 94C30 75 4 58 4 33 4 16 17 6 30 6c10 0 17 6 20 15 3-9 10-15 20-15 13 0 26 10 26 27 0 25-26 42-46 61z" />`,
  D: html`<path d="M50 3 88 50 50 97 12 50z" />`,
  C: html`<circle cx="50" cy="28" r="20" /><circle cx="26" cy="58" r="20" /><circle cx="74" cy="58" r="20" /><path d="M45 52c0 20-5 34-16 45h42C60 86 55 72 55 52z" />`,
};

const COURTS = {
  K: html`<path d="M10 78V30l20 22 20-34 20 34 20-22v48z" /><rect x="10" y="82" width="80" height="10" rx="2" />`,
  Q: html`<path d="M14 80l6-40 15 22 15-34 15 34 15-22 6 40z" /><circle cx="20" cy="34" r="6" /><circle cx="50" cy="22" r="6" /><circle cx="80" cy="34" r="6" />`,
  J: html`<path d="M12 80c0-30 24-44 52-38l22 38z" /><path d="M58 44C66 18 84 8 96 4c-6 18-16 34-30 44z" />`,
};

// The symbols every card refers to: put once in the page.
export function Sprite() {
  return html`<svg class="sprite" aria-hidden="true" focusable="false" width="0" height="0">
    <defs>
      ${Object.entries(SUIT_SHAPES).map(([suit, shape]) => html`<symbol id=${`suit-${suit}`} viewBox="0 0 100 100">${shape}</symbol>`)}
      ${Object.entries(COURTS).map(([rank, shape]) => html`<symbol id=${`court-${rank}`} viewBox="0 0 100 100">${shape}</symbol>`)}
    </defs>
  </svg>`;
}

const Pip = ({ suit, cls = "pip", x, y, size }) =>
  x === undefined
    ? html`<svg class=${cls} viewBox="0 0 100 100" aria-hidden="true"><use href=${`#suit-${suit}`} /></svg>`
    : html`<use href=${`#suit-${suit}`} x=${x} y=${y} width=${size} height=${size} />`;

// The face of a card shown whole (the top of its pile): a large pip, or a court's
// emblem in its frame, below the index.
function Art({ rank, suit }) {
  if (COURTS[rank]) {
    return html`<svg class="art" viewBox="0 0 100 140" aria-hidden="true">
      <rect class="frame" x="16" y="44" width="68" height="88" rx="7" />
      <use class="emblem" href=${`#court-${rank}`} x="26" y="50" width="48" height="48" />
      <${Pip} suit=${suit} x="38" y="100" size="24" />
    </svg>`;
  }
  const size = rank === "A" ? 56 : 40;
  return html`<svg class="art" viewBox="0 0 100 140" aria-hidden="true">
    <${Pip} suit=${suit} x=${50 - size / 2} y=${rank === "A" ? 62 : 74} size=${size} />
  </svg>`;
}

// One card at (x, y) of its pile; `code` null is a card face down. `whole`: nothing
// covers it (its art is drawn). The rank is drawn by the style sheet (b::before): the
// pile around the card says it aloud, whole ("T3: queen of hearts, 4 cards").
export function Card({ code, index, x, y, whole, chosen, moved }) {
  const style = { left: `${x}px`, top: `${y}px` };
  if (code === null) {
    return html`<div class="card back" data-card="?" data-index=${index} style=${style}></div>`;
  }
  const rank = code[0];
  const suit = code[1];
  const cls = ["card", `suit-${suit}`, suit === "H" || suit === "D" ? "red" : "black"];
  if (COURTS[rank]) cls.push("court");
  if (chosen) cls.push("chosen");
  if (moved) cls.push("moved");
  return html`<div class=${cls.join(" ")} data-card=${code} data-index=${index} style=${style}>
    <span class="ix"><b data-rank=${rankText(code)}></b><${Pip} suit=${suit} /></span>
    ${whole ? html`<${Art} rank=${rank} suit=${suit} />` : ""}
  </div>`;
}
