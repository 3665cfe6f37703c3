// Where every pile goes on a table of a given size: a pure function of the view's piles
// (their layout cells `x`, `y` and how they fan) and the room the board has.
//
// The whole table shows at its opening view, its cards as large as the room allows:
// among the game's own layout and a few others — its blocks of columns stacked, a
// sparse block (Squaring the Circle's ring of foundations) folded into rows under the
// rest or columns beside it, each row too wide wrapped in two or three bands (Fifteen,
// the Travellers) — the one whose cards are largest (the game's own unless another's
// are 10 % larger). Columns fanned downwards close up (down to the card's index) to
// fit; a hand fanned to the right wraps into rows. Only a table that cannot show whole
// even with cards of MIN_CARD px pans (it scrolls inside itself: never the page).

// px: the narrowest card the default view shows whole; below it the board pans
export const MIN_CARD = 20;
// px: the widest card (a big screen and a small game)
const MAX_CARD = 200;
// another arrangement replaces the game's own when its cards are this much larger
const PREFER_NATURAL = 1.1;
// the narrowest card "fit the whole table" shows
const FIT_MIN = 14;
const RATIO = 1.4;
// px: the table's margin and the room between two rows
const PAD = 6;
const ROW_GAP = 6;
// piles whose lower cards never play show only their last cards (client/drawing.py)
const SHORT_KINDS = new Set(["waste", "foundation", "discard"]);
const SHORT_CARDS = 8;
// a block of columns this sparse (piles per cell) is folded (a ring of foundations)
const SPARSE = 0.6;

// the sizes that follow from a card's width: the index's font, the room between
// columns, a label's height, the steps of fanned cards
export function sizes(w) {
  const h = Math.round(w * RATIO);
  const font = Math.max(11, Math.min(40, Math.round(w * 0.31)));
  const band = Math.round(font * 1.15) + 4; // the strip of a covered card that shows its index
  return {
    w,
    h,
    font,
    gap: Math.max(3, Math.round(w * 0.1)),
    label: Math.max(14, Math.round(font * 0.9) + 2),
    band,
    upStep: Math.max(band + 2, Math.round(h * 0.27)), // a face-up card under another
    downStep: Math.max(5, Math.round(h * 0.11)), // a face-down one
    minDown: 4,
    side: Math.round(font * 1.25) + 6, // the strip of a card fanned to the right
    rowStep: Math.max(Math.round(font * 2.4) + 6, Math.round(h * 0.42)), // a hand's next row
  };
}

// -- arrangements: each pile's cell (column c, row r) --------------------------------

function natural(piles) {
  const cells = new Map(piles.map((p) => [p.id, { c: p.x, r: p.y }]));
  return { name: "natural", cells };
}

// the blocks of columns with an empty column between them: [first, last] columns
function blocksOf(piles) {
  const cols = Math.max(...piles.map((p) => p.x)) + 1;
  const used = new Set(piles.map((p) => p.x));
  const blocks = [];
  let start = null;
  for (let x = 0; x <= cols; x++) {
    if (used.has(x) && start === null) start = x;
    if (!used.has(x) && start !== null) {
      blocks.push([start, x - 1]);
      start = null;
    }
  }
  return blocks;
}

// A sparse block (a ring of foundations around the stock) folded: its piles in their
// order (the stock and waste last), packed in rows as wide as the densest block and
// put under it (`under`), or in columns as tall as it and put beside it.
function folded(piles, under) {
  const blocks = blocksOf(piles).map(([a, b]) => {
    const inside = piles.filter((p) => p.x >= a && p.x <= b);
    const ys = inside.map((p) => p.y);
    const low = Math.min(...ys);
    const rows = Math.max(...ys) - low + 1;
    return { a, b, low, rows, inside, fill: inside.length / ((b - a + 1) * rows) };
  });
  if (blocks.length !== 2) return null;
  const [main, sparse] = blocks[0].fill >= blocks[1].fill ? blocks : [blocks[1], blocks[0]];
  if (sparse.fill >= SPARSE || sparse.inside.length < 8) return null;
  const cells = new Map();
  for (const p of main.inside) cells.set(p.id, { c: p.x - main.a, r: p.y - main.low });
  const rest = [...sparse.inside.filter((p) => p.kind === "foundation"), ...sparse.inside.filter((p) => p.kind !== "foundation")];
  const across = main.b - main.a + 1;
  rest.forEach((p, i) => {
    if (under) cells.set(p.id, { c: i % across, r: main.rows + Math.floor(i / across) });
    else cells.set(p.id, { c: across + 1 + Math.floor(i / main.rows), r: i % main.rows });
  });
  return { name: under ? "folded-under" : "folded-beside", cells };
}

// Blocks of columns with an empty column between them, stacked one above the other.
function stacked(piles) {
  const blocks = blocksOf(piles);
  if (blocks.length < 2) return null;
  const cells = new Map();
  let top = 0;
  for (const [a, b] of blocks) {
    const inside = piles.filter((p) => p.x >= a && p.x <= b);
    const ys = inside.map((p) => p.y);
    const low = Math.min(...ys);
    for (const p of inside) cells.set(p.id, { c: p.x - a, r: top + p.y - low });
    top += Math.max(...ys) - low + 1;
  }
  return { name: "stacked", cells };
}

// The columns cut into `k` bands: each row too wide for a band is cut into as few
// bands of (nearly) as many piles as it needs, one under the other; a row that fits
// keeps its place (moved left as little as it must).
function wrapped(piles, k) {
  const cols = Math.max(...piles.map((p) => p.x)) + 1;
  const per = Math.ceil(cols / k);
  const rows = [...new Set(piles.map((p) => p.y))].sort((a, b) => a - b);
  const cells = new Map();
  let r = 0;
  let cut = false;
  for (const y of rows) {
    const row = piles.filter((p) => p.y === y).sort((a, b) => a.x - b.x);
    const low = row[0].x;
    const high = row[row.length - 1].x;
    const bands = Math.min(row.length, Math.ceil((high - low + 1) / per));
    if (bands <= 1) {
      const shift = Math.max(0, high - (per - 1));
      for (const p of row) cells.set(p.id, { c: p.x - shift, r });
      r += 1;
      continue;
    }
    cut = true;
    for (let band = 0; band < bands; band++) {
      const part = row.slice(Math.floor((band * row.length) / bands), Math.floor(((band + 1) * row.length) / bands));
      const left = part[0].x;
      for (const p of part) cells.set(p.id, { c: p.x - left, r });
      r += 1;
    }
  }
  return cut ? { name: `wrapped${k}`, cells } : null;
}

export function arrangements(piles) {
  return [natural(piles), stacked(piles), folded(piles, true), folded(piles, false), wrapped(piles, 2), wrapped(piles, 3)].filter(Boolean);
}

// The felt shows no pile's code ("C3", "G04", "P2 NW") and no name: a pile's name is
// spoken (its aria-label) and said in the move line; an empty pile shows what it takes
// inside its place (board.mjs). The one label drawn over a pile is a rank a column
// belongs to (the Travellers' "A", "J", "8": where each rank goes), a character or two.
const RANK_LABEL = /^(A|[2-9]|10|J|Q|K)$/;
export const hasLabel = (pile) => pile.kind === "tableau" && RANK_LABEL.test(pile.label || "");

// -- measuring one arrangement at one card width --------------------------------------

// The piles placed for card width `w`; `squeeze` (0 to 1) closes up downward fans
// from their natural steps (1) to their least (0).
export function place(piles, arrangement, w, squeeze = 1) {
  const s = sizes(w);
  const unit = s.w + s.gap;
  const { cells } = arrangement;
  const cols = Math.max(...[...cells.values()].map((cell) => cell.c)) + 1;
  const up = Math.round(s.band + (s.upStep - s.band) * squeeze);
  const down = Math.round(s.minDown + (s.downStep - s.minDown) * squeeze);
  const rowHeight = new Map();
  const labelled = new Set();
  const placed = piles.map((pile) => {
    const cell = cells.get(pile.id);
    const shortened = SHORT_KINDS.has(pile.kind) && pile.fan !== "none";
    const first = shortened ? Math.max(0, pile.cards.length - SHORT_CARDS) : 0;
    const spots = [];
    let width = s.w;
    let height = s.h;
    if (pile.fan === "down") {
      let y = 0;
      for (let i = first; i < pile.cards.length; i++) {
        spots.push({ i, x: 0, y });
        y += pile.cards[i] === null ? down : up;
      }
      height = s.h + (spots.length ? spots[spots.length - 1].y : 0);
    } else if (pile.fan === "right") {
      const next = [...cells.entries()]
        .filter(([id, other]) => id !== pile.id && other.r === cell.r && other.c > cell.c)
        .map(([, other]) => other.c);
      const room = ((next.length ? Math.min(...next) : cols) - cell.c) * unit - s.gap;
      const n = pile.cards.length - first;
      // as many cards a row as fit the room with their index strips showing; the next
      // row lower, over the lower part of the row above (its indices stay in sight)
      const perRow = Math.max(1, Math.min(n, Math.floor((room - s.w) / s.side) + 1));
      const inRow = Math.min(n, perRow);
      const step = inRow > 1 ? Math.max(s.side, Math.min(Math.round(s.w * 0.6), (room - s.w) / (inRow - 1))) : 0;
      for (let i = first; i < pile.cards.length; i++) {
        const k = i - first;
        spots.push({ i, x: Math.round((k % perRow) * step), y: Math.floor(k / perRow) * s.rowStep });
      }
      width = s.w + (inRow > 1 ? Math.round(step * (inRow - 1)) : 0);
      height = s.h + (n ? Math.floor((n - 1) / perRow) * s.rowStep : 0);
    } else if (pile.cards.length) {
      spots.push({ i: pile.cards.length - 1, x: 0, y: 0 });
    }
    if (hasLabel(pile)) labelled.add(cell.r);
    rowHeight.set(cell.r, Math.max(rowHeight.get(cell.r) || 0, height));
    return { pile, cell, spots, width, height };
  });
  const tops = new Map();
  let top = PAD;
  for (const r of [...rowHeight.keys()].sort((a, b) => a - b)) {
    tops.set(r, top);
    top += (labelled.has(r) ? s.label : 0) + rowHeight.get(r) + ROW_GAP;
  }
  let right = 0;
  for (const p of placed) {
    p.labelled = labelled.has(p.cell.r);
    p.left = PAD + p.cell.c * unit;
    p.top = tops.get(p.cell.r);
    p.label = p.labelled ? s.label : 0;
    right = Math.max(right, p.left + p.width + s.gap);
  }
  for (const p of placed) {
    p.showsLabel = p.labelled && hasLabel(p.pile);
    p.labelRoom = p.width + s.gap;
  }
  return {
    ...s,
    unit,
    placed,
    arrangement: arrangement.name,
    width: Math.max(right, PAD + cols * unit) + PAD,
    height: top - ROW_GAP + PAD,
  };
}

// the widest card (whole px, from..to) for which fits(w) holds, else null
function widest(from, to, fits) {
  if (!fits(from)) return null;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// -- the table --------------------------------------------------------------------------

// The arrangement and card width of the default view for a board of `room`
// {width, height} px, times 1.2^zoom, or `fit` the whole table in the room. The board
// chooses once for a game and a room, so the cards keep their size while columns grow.
export function choose(piles, room, { zoom = 0, fit = false } = {}) {
  const width = Math.max(200, room.width);
  const height = Math.max(160, room.height);
  const options = arrangements(piles).map((arrangement) => {
    const across = widest(FIT_MIN, MAX_CARD, (w) => place(piles, arrangement, w, 0).width <= width) ?? FIT_MIN;
    const down = widest(FIT_MIN, MAX_CARD, (w) => place(piles, arrangement, w, 0).height <= height) ?? FIT_MIN;
    return { arrangement, across, down, fits: Math.min(across, down) };
  });
  let best;
  if (fit) {
    best = options.reduce((a, b) => (b.fits > a.fits ? b : a));
    return { arrangement: best.arrangement, w: best.fits };
  }
  // Whole and as large as it can be: the layout the game was drawn with, unless another
  // shows markedly larger cards.
  const whole = options.filter((o) => o.fits >= MIN_CARD);
  let w;
  if (whole.length) {
    best = whole[0].arrangement.name === "natural" ? whole[0] : null;
    for (const o of whole) if (!best || o.fits > best.fits * PREFER_NATURAL) best = o;
    w = best.fits;
  } else {
    // Too big to show whole at MIN_CARD: the board pans, as little as it can (a pan
    // sideways counts double: scrolling down is what a phone does best).
    const overflow = (o) => {
      const table = place(piles, o.arrangement, MIN_CARD, 0);
      return 2 * Math.max(0, table.width - width) + Math.max(0, table.height - height);
    };
    best = options.reduce((a, b) => (overflow(b) < overflow(a) ? b : a));
    w = Math.max(MIN_CARD, Math.min(best.across, best.down));
  }
  if (zoom) w = Math.round(Math.max(FIT_MIN, Math.min(MAX_CARD * 1.5, w * 1.2 ** zoom)));
  return { arrangement: best.arrangement, w };
}

// The table of `piles` as `chosen`: downward fans at their natural steps if the room's
// height allows, else closed up to fit it (the board pans past that).
export function layout(piles, room, chosen) {
  const { arrangement, w } = chosen;
  let table = place(piles, arrangement, w, 1);
  if (table.height > room.height) {
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 8; i++) {
      const mid = (lo + hi) / 2;
      if (place(piles, arrangement, w, mid).height <= room.height) lo = mid;
      else hi = mid;
    }
    table = place(piles, arrangement, w, lo);
  }
  return table;
}
