// Cards drawn as SVG by bummerl: French (♣ ♦ ♥ ♠) and German (Eichel, Schellen, Herz, Laub) faces.
// A card code is the contract's: rank letter then suit letter ("QH", "TC", "9D").

const SVG = "http://www.w3.org/2000/svg";

export const SUIT_LETTERS = ["C", "D", "H", "S"];
export const RANK_LETTERS = ["9", "J", "Q", "K", "T", "A"];

const FRENCH = {
  suits: { C: "♣", D: "♦", H: "♥", S: "♠" },
  names: { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" },
  ranks: { "9": "9", J: "J", Q: "Q", K: "K", T: "10", A: "A" },
  rankNames: { "9": "Nine", J: "Jack", Q: "Queen", K: "King", T: "Ten", A: "Ace" },
  colors: { C: "#1b1b1b", D: "#c8102e", H: "#c8102e", S: "#1b1b1b" },
};

const GERMAN = {
  suits: { C: "Eichel", D: "Schellen", H: "Herz", S: "Laub" },
  names: { C: "Eichel", D: "Schellen", H: "Herz", S: "Laub" },
  ranks: { "9": "9", J: "U", Q: "O", K: "K", T: "10", A: "Sau" },  // the terminal's and the log's (table.RANK_LABELS)
  rankNames: { "9": "Neuner", J: "Unter", Q: "Ober", K: "König", T: "Zehner", A: "Sau" },
  colors: { C: "#7a4a12", D: "#8c6a00", H: "#c8102e", S: "#2e7d32" },  // each 4.5:1 or more on the card (Schellen was 3.2:1)
};

export function faces(style) {
  return style === "german" ? GERMAN : FRENCH;
}

/** A short name for people, as the server's event texts write it (table.card_name): "Q♥" (French) or
 *  "Herz O", "Laub Sau" (German). One page names a card one way. */
export function cardName(code, style) {
  const f = faces(style);
  const rank = code[0], suit = code[1];
  if (style === "german") return `${f.names[suit]} ${f.ranks[rank]}`;
  return f.ranks[rank] + f.suits[suit];
}

const SPOKEN_SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** A card's name for screen readers and speech input: "Queen of diamonds" (French), "Herz Ober" (German). */
export function cardSpeech(code, style) {
  const f = faces(style);
  const rank = code[0], suit = code[1];
  if (style === "german") return `${f.names[suit]} ${f.rankNames[rank]}`;
  return `${f.rankNames[rank]} of ${SPOKEN_SUITS[suit]}`;
}

/** ``text`` (an event's, from the server) with its card names and suit symbols in words, for speech. */
export function speakable(text, style) {
  const codes = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };
  return text
    .replace(/(10|[9JQKA])([♣♦♥♠])/g, (_, r, s) => cardSpeech((r === "10" ? "T" : r) + codes[s], "french"))
    .replace(/[♣♦♥♠]/g, (s) => SPOKEN_SUITS[codes[s]])
    .replace(/\b(Eichel|Schellen|Herz|Laub) (Sau|10|9|U|O|K)\b/g, (_, s, r) =>
      `${s} ${GERMAN.rankNames[{ Sau: "A", 10: "T", 9: "9", U: "J", O: "Q", K: "K" }[r]]}`);
}

/** A suit for people: "♥" or "Herz". */
export function suitName(letter, style) {
  return faces(style).suits[letter];
}

/** A suit for speech: "hearts" or "Herz". */
export function suitSpeech(letter, style) {
  return style === "german" ? GERMAN.names[letter] : SPOKEN_SUITS[letter];
}

// ----------------------------------------------------------------------------- suit symbols
// Each symbol is drawn in a 20 x 20 box.

function el(name, attrs, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.appendChild(c);
  return node;
}

const HEART = "M10 18.5C4 13.5 1 10 1.4 6.4 1.8 3 5.8 1.5 8.2 3.6 9 4.3 9.6 5 10 5.8 10.4 5 11 4.3 11.8 3.6 14.2 1.5 18.2 3 18.6 6.4 19 10 16 13.5 10 18.5Z";
const DIAMOND = "M10 1 17.5 10 10 19 2.5 10Z";
const SPADE = "M10 1C7 5.5 1.5 8.5 1.8 12.6 2 15.8 6 17 8.7 14L7.6 19H12.4L11.3 14C14 17 18 15.8 18.2 12.6 18.5 8.5 13 5.5 10 1Z";
const LEAF = "M10 1C15.5 4.5 18.5 9.5 14.5 14.5 13 16.3 11.5 17 10 17.4 8.5 17 7 16.3 5.5 14.5 1.5 9.5 4.5 4.5 10 1Z";

function frenchSymbol(suit) {
  const color = FRENCH.colors[suit];
  if (suit === "H") return el("path", { d: HEART, fill: color });
  if (suit === "D") return el("path", { d: DIAMOND, fill: color });
  if (suit === "S") return el("path", { d: SPADE, fill: color });
  return el("g", { fill: color }, [
    el("circle", { cx: 10, cy: 5.6, r: 4.1 }),
    el("circle", { cx: 5.3, cy: 11.3, r: 4.1 }),
    el("circle", { cx: 14.7, cy: 11.3, r: 4.1 }),
    el("path", { d: "M10 8 8 19H12Z" }),
  ]);
}

function germanSymbol(suit) {
  if (suit === "H") {
    return el("g", {}, [
      el("path", { d: HEART, fill: "#d7192f", stroke: "#7d0a17", "stroke-width": 0.8 }),
      el("path", { d: "M5 5.5C6 4.2 7.5 4.2 8.3 5.3", stroke: "#ffb3ba", "stroke-width": 1, fill: "none" }),
    ]);
  }
  if (suit === "D") { // Schellen: a round golden bell
    return el("g", {}, [
      el("circle", { cx: 10, cy: 3, r: 1.7, fill: "#8a5a00" }),
      el("circle", { cx: 10, cy: 11, r: 7.6, fill: "#f2b51d", stroke: "#7a4d00", "stroke-width": 0.9 }),
      el("path", { d: "M2.8 9.3H17.2", stroke: "#7a4d00", "stroke-width": 1.2 }),
      el("path", { d: "M3.3 12.2H16.7", stroke: "#c0392b", "stroke-width": 1.1 }),
      el("circle", { cx: 10, cy: 15.1, r: 1.5, fill: "#4a2f00" }),
      el("path", { d: "M10 15.5V18.4", stroke: "#4a2f00", "stroke-width": 1 }),
    ]);
  }
  if (suit === "C") { // Eichel: an acorn
    return el("g", {}, [
      el("path", { d: "M10 0.8V3.5", stroke: "#4a2f00", "stroke-width": 1.3 }),
      el("ellipse", { cx: 10, cy: 12.6, rx: 5.3, ry: 6.4, fill: "#d9a441", stroke: "#6b4410", "stroke-width": 0.8 }),
      el("path", { d: "M3.2 8.6C3.2 4.6 6.2 3 10 3S16.8 4.6 16.8 8.6C14.5 9.8 5.5 9.8 3.2 8.6Z", fill: "#6b4410" }),
      el("path", { d: "M5 5.5 8 8.6M8 4 11.5 8.9M11.5 3.7 14.6 8.3M15 5.3 12.4 8.9M11.5 3.7 8.6 8.9M8 4 5.6 8.4", stroke: "#a9773a", "stroke-width": 0.6 }),
      el("path", { d: "M7.5 12C7.7 14.5 8.6 16 9.6 16.8", stroke: "#f6d98a", "stroke-width": 0.9, fill: "none" }),
    ]);
  }
  return el("g", {}, [ // Laub: a green leaf
    el("path", { d: "M10 17.2V19.4", stroke: "#1b4d1e", "stroke-width": 1.4 }),
    el("path", { d: LEAF, fill: "#3d9b40", stroke: "#1b4d1e", "stroke-width": 0.8 }),
    el("path", { d: "M10 3V17M10 8 6.4 5.6M10 8 13.6 5.6M10 11.5 5.4 8.8M10 11.5 14.6 8.8M10 14.5 6.8 12.6M10 14.5 13.2 12.6", stroke: "#1b4d1e", "stroke-width": 0.7, fill: "none" }),
  ]);
}

export function suitSymbol(suit, style) {
  return style === "german" ? germanSymbol(suit) : frenchSymbol(suit);
}

/** An inline SVG of one suit symbol (for text: buttons, the log, headings). */
export function suitIcon(suit, style, size = 18) {
  const svg = el("svg", { viewBox: "0 0 20 20", width: size, height: size, class: "suit-icon",
                          role: "img", "aria-label": suitName(suit, style) });
  svg.appendChild(suitSymbol(suit, style));
  return svg;
}

function placed(symbol, x, y, scale, rotate = 0) {
  const g = el("g", { transform: `translate(${x} ${y}) rotate(${rotate}) scale(${scale}) translate(-10 -10)` });
  g.appendChild(symbol);
  return g;
}

// ----------------------------------------------------------------------------- whole cards
// A card is 100 x 140 units.

const COURT = new Set(["J", "Q", "K"]);

function corner(code, style, flip) {
  const f = faces(style);
  const rank = code[0], suit = code[1];
  const color = f.colors[suit];
  const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {});
  const size = [27, 27, 22, 14][f.ranks[rank].length];  // "Sau", the German ace, in the same corner
  const label = el("text", { x: f.ranks[rank].length > 2 ? 15 : 13, y: 29, "text-anchor": "middle", "font-size": size,
                             "font-weight": 700, fill: color, "font-family": "Georgia, 'DejaVu Serif', serif",
                             "letter-spacing": f.ranks[rank].length === 2 ? -2 : 0 });
  label.textContent = f.ranks[rank];
  g.appendChild(label);
  // The nine is underlined, as on real decks: upside down in the other corner it is no 6.
  if (rank === "9") g.appendChild(el("path", { d: "M6 33H20", stroke: color, "stroke-width": 2.2 }));
  g.appendChild(placed(suitSymbol(suit, style), 13, 43, 0.75));
  return g;
}

function court(code, style) {
  // A court card: a coloured frame with the rank's letter large and the suit on either side.
  const f = faces(style);
  const rank = code[0], suit = code[1];
  const color = f.colors[suit];
  const g = el("g", {});
  g.appendChild(el("rect", { x: 25, y: 16, width: 50, height: 108, rx: 6, fill: "#fbf3dc", stroke: color, "stroke-width": 2 }));
  g.appendChild(el("rect", { x: 29, y: 20, width: 42, height: 100, rx: 4, fill: "none", stroke: "#d8b85a", "stroke-width": 1.2 }));
  const letter = el("text", { x: 50, y: 82, "text-anchor": "middle", "font-size": 46, "font-weight": 700, fill: color,
                              "font-family": "Georgia, 'DejaVu Serif', serif" });
  letter.textContent = f.ranks[rank];
  g.appendChild(letter);
  g.appendChild(placed(suitSymbol(suit, style), 50, 36, 0.95));
  g.appendChild(placed(suitSymbol(suit, style), 50, 104, 0.95, 180));
  const name = el("text", { x: 50, y: 117.5, "text-anchor": "middle", "font-size": 7.5, fill: "#5d4a1a",
                            "font-family": "Verdana, 'DejaVu Sans', sans-serif" });
  name.textContent = f.rankNames[rank];
  g.appendChild(name);
  return g;
}

function pips(code, style) {
  const rank = code[0], suit = code[1];
  const g = el("g", {});
  if (rank === "A") {
    g.appendChild(placed(suitSymbol(suit, style), 50, 70, 2.6));
  } else if (rank === "T") {
    const spots = [[38, 30], [62, 30], [50, 44], [38, 58], [62, 58], [38, 82], [62, 82], [50, 96], [38, 110], [62, 110]];
    spots.forEach(([x, y], i) => g.appendChild(placed(suitSymbol(suit, style), x, y, 0.62, i >= 5 ? 180 : 0)));
  } else { // the nine of Sixty-Six
    const spots = [[38, 32], [62, 32], [38, 56], [62, 56], [50, 70], [38, 84], [62, 84], [38, 108], [62, 108]];
    spots.forEach(([x, y], i) => g.appendChild(placed(suitSymbol(suit, style), x, y, 0.66, i >= 5 ? 180 : 0)));
  }
  return g;
}

/** The SVG of a face-up card. */
export function cardSvg(code, style) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", role: "img", "aria-label": cardSpeech(code, style) });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fffdf7", stroke: "#444", "stroke-width": 1.5 }));
  svg.appendChild(COURT.has(code[0]) ? court(code, style) : pips(code, style));
  svg.appendChild(corner(code, style, false));
  svg.appendChild(corner(code, style, true));
  return svg;
}

/** The SVG of a card's back. */
export function backSvg() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", role: "img", "aria-label": "card back" });
  const defs = el("defs", {});
  const pattern = el("pattern", { id: "bummerl-back", width: 10, height: 10, patternUnits: "userSpaceOnUse",
                                  patternTransform: "rotate(45)" });
  pattern.appendChild(el("rect", { width: 10, height: 10, fill: "#1f4e8c" }));
  pattern.appendChild(el("path", { d: "M0 5H10M5 0V10", stroke: "#5b8bd0", "stroke-width": 1.4 }));
  defs.appendChild(pattern);
  svg.appendChild(defs);
  svg.appendChild(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fffdf7", stroke: "#444", "stroke-width": 1.5 }));
  svg.appendChild(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#bummerl-back)", stroke: "#163a6b", "stroke-width": 1.5 }));
  return svg;
}
