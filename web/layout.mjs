// Where every pile goes on a table of a given size: a pure function of the view's piles
// (their layout cells `x`, `y` and how they fan) and the room the board has.
//
// The cards are as large as the room allows, and never narrower than MIN_CARD at the
// default view: a game too wide for a narrow screen gets an arrangement of its own —
// its blocks of columns stacked (Squaring the Circle's grid above its ring), or each row
// wrapped in two or three bands (Fifteen, the Travellers) — and when even that does
// not fit, the board pans (it scrolls inside itself: never the page sideways). Columns
// fanned downwards close up (down to the card's index) before the board pans.

// px: the narrowest card of the default view (issue 37: at least 36 on a phone)
export const MIN_CARD = 36;
// px: the widest card (a big screen and a small game)
const MAX_CARD = 120;
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

// the sizes that follow from a card's width: the index's font, the room between
// columns, a label's height, the steps of fanned cards
export function sizes(w) {
  const h = Math.round(w * RATIO);
  const font = Math.max(12, Math.min(24, Math.round(w * 0.31)));
  const band = Math.round(font * 1.15) + 4; // the strip of a covered card that shows its index
  return {
    w,
    h,
    font,
    gap: Math.max(4, Math.round(w * 0.12)),
    label: Math.max(16, Math.round(font * 1.1) + 2),
    band,
    upStep: Math.max(band + 2, Math.round(h * 0.27)), // a face-up card under another
    downStep: Math.max(5, Math.round(h * 0.11)), // a face-down one
    minDown: 4,
    side: Math.round(font * 1.25) + 6, // the strip of a card fanned to the right
  };
}

// -- arrangements: each pile's cell (column c, row r) --------------------------------

function natural(piles) {
  const cells = new Map(piles.map((p) => [p.id, { c: p.x, r: p.y }]));
  return { name: "natural", cells };
}

// Blocks of columns with an empty column between them, stacked one above the other.
function stacked(piles) {
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
  return [natural(piles), stacked(piles), wrapped(piles, 2), wrapped(piles, 3)].filter(Boolean);
}

// a label that says more than the pile's id (a foundation's "A↑", "stock", a row's rank)
// (a stock and a waste need none: a stock's back and a waste's place say what they are,
// and an empty one shows its name inside)
export const hasLabel = (pile) => Boolean(pile.label) && pile.label !== pile.id && pile.kind !== "stock" && pile.kind !== "waste";

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
      const step = n > 1 ? Math.max(s.side, Math.min(Math.round(s.w * 0.6), (room - s.w) / (n - 1))) : 0;
      for (let i = first; i < pile.cards.length; i++) spots.push({ i, x: Math.round((i - first) * step), y: 0 });
      width = s.w + (n > 1 ? Math.round(step * (n - 1)) : 0);
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
  // A label too long for its pile, the same as the one before it in its row, is shown
  // once for the run ("2 5 8 J" over Parade's first row); a label may run on over the
  // room of the piles after it that show none of their own.
  const byPlace = placed.filter((p) => p.labelled && hasLabel(p.pile)).sort((a, b) => a.cell.r - b.cell.r || a.cell.c - b.cell.c);
  byPlace.forEach((p, i) => {
    const before = byPlace[i - 1];
    const long = p.pile.label.length * s.font * 0.62 > p.width + s.gap;
    p.showsLabel = !(long && before && before.cell.r === p.cell.r && before.pile.label === p.pile.label);
  });
  for (const p of placed) {
    if (!p.labelled) continue;
    const after = placed.filter((o) => o.cell.r === p.cell.r && o.cell.c > p.cell.c && o.showsLabel).map((o) => o.left);
    p.labelRoom = (after.length ? Math.min(...after) : right) - p.left;
  }
  return {
    ...s,
    unit,
    placed,
    arrangement: arrangement.name,
    width: Math.max(right, PAD * 2 + cols * unit - s.gap) + PAD - s.gap,
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
  // Readable and whole: the layout the game was drawn with, unless another shows
  // markedly larger cards.
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
