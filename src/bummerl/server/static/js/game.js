// The table: draws the seat's view from the server's messages and sends actions (mouse, touch, keyboard).
// The server is the referee: this page only shows what the view holds and sends action strings.

import { backSvg, cardName, cardSpeech, cardSvg, speakable, suitIcon, suitName, suitSpeech } from "./cards.js";
// presence.js listens to this page's messages: imported here, it is running before the socket opens (as a
// <script> of its own it could finish loading after the first view had come, and miss it for good).
import { isAway, isStalled } from "./presence.js";
import { REFUSED_RETRY_MS, SPEEDS, askRematch, forgetGame, h, knownGames, loadSettings, rememberGame, saveSettings, startGame } from "./settings.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let settings = loadSettings();
let seat = 0;
let view = null;             // the last view message shown
let socket = null;
let closedByUs = false;
let retry = 0;
let pendingEvents = [];
let pendingReplay = false;
const frames = [];           // {events, replay, view} waiting to be shown
let pumping = false;
let lastShown = 0;
let marryMode = false;
let summaryShownFor = "";    // "deal number/phase" whose summary was shown
let modalKind = null;        // what the open dialog is: "summary", "over", "claim", "analysis", ...
let statusIsError = false;
let errorsShown = 0;          // errors said so far: an error's timer restores the prompt only if it is the last
let gameEvents = [];          // every event of the game shown so far (the deal summary reads its deal's)
let opener = null;           // the control that opened the dialog: focus goes back to it

const ACTOR_KINDS = new Set(["play", "exchange", "close", "marry", "claim", "pass"]);
// A trick taken stays on the table at least this long before the opponent's next move clears it, even at
// the "instant" speed (else a trick the computer took and led after was never seen, only in the log).
const TRICK_MS = 700;
const STATUS_NOTE_MS = 6000;  // how long an error stays on the status line before whose turn it is again
const socketOpen = () => socket !== null && socket.readyState === WebSocket.OPEN;
// Close codes of a socket refused as it opens for a reason the server names: the game cannot be opened now
// (open in another window, the store busy or damaged: 4409, after an error saying why) or too many
// connections from this address (1013). It may pass, so the page says why and tries again, slowly.
const REFUSED_NOW = new Set([4409, 1013]);

// ----------------------------------------------------------------------------- connecting

async function token() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = hash.get("token");
  if (fromHash) {
    rememberGame(gameId, fromHash);
    history.replaceState(null, "", location.pathname);
    return fromHash;
  }
  const known = knownGames()[gameId];
  if (known && known.token) return known.token;
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/resume`, { method: "POST" });
  if (!response.ok) return null;
  const answer = await response.json();
  rememberGame(gameId, answer.token);
  return answer.token;
}

async function connect() {
  const t = await token();
  if (!t) {
    // (a play-test opened a friend game's address in another browser: an empty table "against the Computer")
    setStatus("This game is not open in this browser: a game with a friend opens from its invitation link "
      + "(or /friend) in the browser you played in.", true);
    $("opponent-name").textContent = $("sheet-opp").textContent = "";
    $("game").setAttribute("aria-busy", "false");
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(t)}`);
  socket = ws;
  let viewed = false;  // a view came: the game opened on this socket
  let why = "";        // the error the server sent before closing it
  ws.addEventListener("open", () => { retry = 0; });
  ws.addEventListener("message", (e) => {
    pingSent = null;
    const msg = JSON.parse(e.data);
    if (msg.type === "view") viewed = true;
    if (msg.type === "error") why = msg.reason;
    receive(msg);
  });
  ws.addEventListener("close", (e) => {
    if (!viewed && REFUSED_NOW.has(e.code)) refused(ws, why || e.reason || `refused (${e.code})`);
    else dropped(ws);
  });
}

/** The server refused ``ws`` as it opened, saying why: say so in one line with a way to try at once, and try
 *  again by itself every 10 s (not within a second or two, for ever, as for a lost connection; and the
 *  game is not forgotten, as after failed handshakes). */
function refused(ws, why) {
  if (ws !== socket) return;
  socket = null;
  if (closedByUs) return;
  $("game").dataset.connected = "refused";
  $("game").setAttribute("aria-busy", "false");
  setStatus(`This game cannot be opened now: ${why}.`, true);
  $("status").append(" ", h("button", { type: "button", "data-action": "reload", onclick: () => location.reload() },
    "Try again"));
  setTimeout(connect, REFUSED_RETRY_MS);
}

/** The connection ``ws`` is gone (closed, or found dead by the heartbeat): say so and open a new one. */
function dropped(ws) {
  if (ws !== socket) return;  // already given up as dead: a new socket is (being) opened
  socket = null;
  if (closedByUs) return;
  if (!view) {
    setStatus("This game cannot be opened (it may not exist).", true);
    retry += 1;
    if (retry > 3) { unopened(); return; }
  } else {
    setStatus("Connection lost — reconnecting…", true);
  }
  $("game").dataset.connected = "false";
  setTimeout(connect, Math.min(4000, 300 * 2 ** Math.min(retry++, 4)));
}

/** Four handshakes refused before any view (a browser cannot tell why): forget the game only if the server
 *  says it does not exist; else (too many connections refused before they open, a token this game does not
 *  know) say so and try again every 10 s. */
async function unopened() {
  let missing = false;
  try {
    missing = (await fetch(`/api/games/${encodeURIComponent(gameId)}/record`)).status === 404;
  } catch { /* the server is down: it may come back */ }
  if (missing) { forgetGame(gameId); return; }
  setStatus("This game cannot be opened now: the server refuses the connection. Trying again in a while.", true);
  setTimeout(connect, REFUSED_RETRY_MS);
}

// The heartbeat: a network that drops without closing the socket is found within 25 s (a ping every 15 s,
// 10 s for any answer), said, and a new socket opened; the server's view on it shows what was missed.
let nextAskedIn = null;  // the deal whose "next" we sent last
let pingSent = null;  // performance.now() of the ping not answered yet
let pingLast = 0;
setInterval(() => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (pingSent !== null && performance.now() - pingSent > 10_000) {
    const dead = socket;
    pingSent = null;
    dead.close();  // (its close event may come much later: it is let go now)
    dropped(dead);
    return;
  }
  if (pingSent === null && performance.now() - pingLast >= 15_000) {
    pingSent = pingLast = performance.now();
    socket.send(JSON.stringify({ type: "ping" }));
  }
}, 5_000);

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    if ($("game").dataset.connected === "refused") return;  // the status line says why and offers to try again
    setStatus("Not connected — reconnecting…", true);
    return;
  }
  socket.send(JSON.stringify(message));
}

function receive(msg) {
  window.dispatchEvent(new CustomEvent("bummerl:message", { detail: msg }));  // presence.js, friend games
  if (msg.type === "events") {
    pendingEvents = pendingEvents.concat(msg.events);
    pendingReplay = pendingReplay || !!msg.replay;
  } else if (msg.type === "view") {
    frames.push({ events: pendingEvents, replay: pendingReplay, view: msg });
    pendingEvents = [];
    pendingReplay = false;
    $("game").dataset.queue = String(frames.length);
    pump();
  } else if (msg.type === "error") {
    // Both players asked for the next deal: the friend's came first, and ours has nothing left to do.
    if (nextAskedIn !== null && view && view.deal_number > nextAskedIn && view.phase === "playing") {
      nextAskedIn = null;
      return;
    }
    setStatus(msg.reason, true);
    if (modalKind === "analysis" || modalKind === "review-wait") closeModal();
    // A review refused (the computer busy with other questions): say so where its answer would go.
    const reviewBox = msg.answers === "review" ? document.getElementById("review") : null;
    if (reviewBox) reviewBox.replaceChildren(h("p", { class: "why", text: msg.reason }));
  } else if (msg.type === "rematch") {  // a friend game: the friend asked for a rematch
    const offer = `${msg.by} asks for a rematch: Rematch takes your seat in it`;
    if (modalKind === "over") $("modal-body").append(h("p", { class: "why", id: "rematch-offer", text: offer }));
    else setStatus(offer);
  } else if (msg.type === "presence") {  // a friend came or went: "is away" or "is thinking"
    if (view && !statusIsError) prompt();
  } else if (msg.type === "analysis") {
    showAnalysis(msg);
  } else if (msg.type === "review") {
    showReview(msg);
  }
}

async function pump() {
  if (pumping) return;
  pumping = true;
  while (frames.length) {
    const frame = frames[0];
    const delay = SPEEDS[settings.speed] ?? 0;
    const theirs = !frame.replay && frame.events.some((e) => ACTOR_KINDS.has(e.kind) && e.seat !== null && e.seat !== seat);
    const trickShown = view && view.phase === "playing" && !view.deal.lead && view.deal.tricks.length > 0;
    const least = Math.max(delay, trickShown ? TRICK_MS : 0);
    if (theirs && least > 0) {
      const wait = lastShown + least - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    frames.shift();
    show(frame);
    lastShown = performance.now();
    $("game").dataset.queue = String(frames.length);
  }
  pumping = false;
}

// ----------------------------------------------------------------------------- drawing

/** The game's card faces (its log is written in them too); the browser's setting before the first view. */
function style() {
  return (view && view.cards) || settings.cards;
}

/** A card; with ``action`` a button named in words from its content ("Queen of diamonds, key 2, may be
 *  played"), so that its name holds what it shows (the key) and speech input finds it. */
function cardElement(code, { action = null, key = null, classes = "", note = "" } = {}) {
  const attrs = { class: `card ${classes}`.trim(), "data-card": code, title: cardName(code, style()) };
  let node;
  if (action) {
    node = h("button", { ...attrs, type: "button", "data-action": action });
    node.addEventListener("click", () => onCard(code));
    const svg = cardSvg(code, style());
    svg.setAttribute("aria-hidden", "true");
    node.appendChild(svg);
    node.appendChild(h("span", { class: "sr-only", text: `${cardSpeech(code, style())}${key ? `, key ${key}` : ""}${note}` }));
  } else {
    node = h("div", attrs);
    node.appendChild(cardSvg(code, style()));
  }
  if (key) node.appendChild(h("span", { class: "key", text: key, "aria-hidden": "true" }));
  return node;
}

function backElement(classes = "") {
  const node = h("div", { class: `card back ${classes}`.trim(), "aria-hidden": "true" });
  node.appendChild(backSvg());
  return node;
}

function slot(label) {
  return h("div", { class: "card slot" }, h("span", { text: label }));
}

const SUIT_ORDER = { C: 0, D: 1, H: 2, S: 3 };
const RANK_ORDER = { "9": 0, J: 1, Q: 2, K: 3, T: 4, A: 5 };

/** The hand as shown (and numbered for the keys): trumps first, then spades, hearts, clubs, diamonds. */
function sortedHand(deal) {
  const order = [deal.trump, ...["S", "H", "C", "D"].filter((s) => s !== deal.trump)];
  return [...deal.hand].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || RANK_ORDER[a[0]] - RANK_ORDER[b[0]]);
}

function name(s) {
  return view.players[s].name;
}

function myTurn() {
  return view && view.phase === "playing" && view.waiting_for === seat && !view.thinking && frames.length === 0;
}

function legal() {
  return myTurn() ? view.deal.legal : [];
}

function show(frame) {
  const fresh = !view || frame.replay;
  const before = view;
  view = frame.view;  // before the log: it reads the rules
  seat = view.seat;
  if (fresh) { $("log").replaceChildren(); gameEvents = []; }
  for (const e of frame.events) logEvent(e);
  gameEvents = gameEvents.concat(frame.events);
  // A screen reader hears each new event (the log itself is not live: a reconnect replays all of it).
  if (!frame.replay && frame.events.length) announce(frame.events.map((e) => speakable(e.text, style())).join(". "));
  if (!legal().some((a) => a.startsWith("marry"))) marryMode = false;
  // An error said before the game moved on (a move, a new deal, the friend taking the seat, a reconnect)
  // is stale: the status line says again whose turn it is.
  if (fresh || frame.events.length || before.waiting_for !== view.waiting_for || before.phase !== view.phase ||
      JSON.stringify(before.players) !== JSON.stringify(view.players)) statusIsError = false;
  draw();
  // A game or a deal begins with focus in the hand (its group: Tab goes to the first card), not on <body>.
  if ((fresh || before.deal_number !== view.deal_number) && $("modal").hidden &&
      (!document.activeElement || document.activeElement === document.body)) $("hand").focus({ preventScroll: true });
  // The friend started the next deal while this seat's summary was open: it closes (the log says who
  // deals), and the status line says whose turn it is.
  if (before && before.deal_number !== view.deal_number && view.phase === "playing" && modalKind === "summary") {
    closeModal();
  }
  const key = `${view.deal_number}/${view.phase}`;
  if ((view.phase === "deal_over" || view.phase === "game_over") && summaryShownFor !== key) {
    summaryShownFor = key;
    if (view.ended) showGameOver(); else showSummary();  // won away from the table: no deal to sum up
  }
}

function draw() {
  const deal = view.deal;
  const me = seat, opp = 1 - seat;
  const game = $("game");
  game.setAttribute("aria-busy", "false");
  game.dataset.connected = "true";
  game.dataset.phase = view.phase;
  game.dataset.deal = String(view.deal_number);
  game.dataset.tricks = String(deal.tricks.length);
  game.dataset.lead = deal.lead || "";
  game.dataset.turn = view.phase !== "playing" ? "none" : (myTurn() ? "me" : "opponent");
  const opponent = view.players[opp];
  const rulesName = view.rules_text || (typeof view.rules === "string" ? view.rules : (view.rules.preset || "custom"));
  $("subtitle").textContent = `${view.players[me].name === "You" ? "You" : view.players[me].name} vs ${
    opponent.kind === "computer" ? `the computer (${opponent.level})` : opponent.name} · ${rulesName} · deal ${view.deal_number}`;
  document.title = `bummerl — deal ${view.deal_number}`;
  // Between two people, while the Bummerl is on, either may give it up.
  $("btn-resign").hidden = !(view.presence && !view.friend_to_come && !view.withdrawn && view.phase !== "game_over");

  // the opponent
  $("opponent-name").textContent = opponent.name;
  const oppTricks = deal.tricks_won[opp];
  $("opponent-info").textContent = `· ${oppTricks} trick${oppTricks === 1 ? "" : "s"}${view.thinking ? " · thinking…" : ""}`;
  const size = deal.opponent_hand_size;
  $("opponent-hand").replaceChildren(...Array.from({ length: size }, () => backElement("small")));
  $("opponent-hand").setAttribute("aria-label", `${opponent.name}'s hand: ${size} card${size === 1 ? "" : "s"}`);
  const shown = view.opponent_shown || [];
  const declared = deal.marriages.filter((m) => m.player === opp).map((m) => m.suit);
  const shownBox = $("opponent-shown");
  shownBox.replaceChildren();
  if (shown.length) shownBox.append(h("span", { class: "label", text: "shown:" }), ...shown.map((c) => cardElement(c, { classes: "small" })));
  if (declared.length) {
    shownBox.append(h("span", { class: "label", text: "declared:" }), ...declared.map((s) => suitIcon(s, style(), 20)));
  }

  // the talon and the trump card
  const talon = $("talon");
  talon.replaceChildren();
  const trumpIcon = suitIcon(deal.trump, style(), 18);
  if (deal.talon_open) {
    talon.append(h("div", { class: "stack" }, deal.trump_card ? cardElement(deal.trump_card, { classes: "trump-card" }) : null,
      backElement("talon-top"), h("span", { class: "count", text: String(deal.talon_size) })));
    $("talon-caption").replaceChildren(`Talon ${deal.talon_size} · trump `, trumpIcon);
  } else if (deal.closed_by !== null && deal.talon_size > 0) {
    talon.append(h("div", { class: "stack closed" }, deal.bottom_card ? cardElement(deal.bottom_card, { classes: "trump-card turned" }) : null,
      backElement("talon-top"), h("span", { class: "count closed-mark", text: "closed" })));
    $("talon-caption").replaceChildren(`Closed by ${deal.closed_by === me ? "you" : name(deal.closed_by)} · trump `, trumpIcon);
  } else {
    talon.append(h("div", { class: "stack empty" }, slot("empty")));
    $("talon-caption").replaceChildren("Talon used up · trump ", trumpIcon);
  }

  // the trick in progress, or the last trick
  const trick = $("trick");
  trick.replaceChildren();
  const playing = view.phase === "playing";
  if (deal.lead) {
    const leader = playing ? 1 - deal.to_move : opp;
    trick.append(column(cardElement(deal.lead, { classes: "played" }), leader),
                 column(slot("?"), 1 - leader));
    $("trick-caption").textContent = "Trick";
  } else if (deal.tricks.length) {
    const last = deal.tricks[deal.tricks.length - 1];
    trick.append(column(cardElement(last.lead, { classes: "played last" }), last.leader),
                 column(cardElement(last.follow, { classes: "played last" }), 1 - last.leader));
    $("trick-caption").textContent = `Last trick → ${last.winner === me ? "you" : name(last.winner)}`;
  } else {
    trick.append(column(slot(""), deal.to_move), column(slot(""), 1 - deal.to_move));
    $("trick-caption").textContent = "Trick";
  }

  // your hand
  const hand = sortedHand(deal);
  const playable = new Set(legal().filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
  const strict = playable.size > 0 && playable.size < hand.length;
  const marryable = new Set(legal().filter((a) => a.startsWith("marry ")).map((a) => a.slice(6)));
  const focused = focusPlace();  // the hand and the actions are drawn anew: the focus is put back after
  $("hand").style.setProperty("--n", String(Math.max(1, hand.length)));  // the cards shrink to fit (style.css)
  $("hand").replaceChildren(...hand.map((code, i) => {
    let classes = "", note = "";
    if (strict) {
      classes = playable.has(code) ? "playable" : "unplayable";
      note = playable.has(code) ? ", may be played" : ", may not be played now";
    }
    if (marryable.has(code[1]) && "KQ".includes(code[0])) {
      if (marryMode) classes += " chosen";
      note += ", declares its marriage first";
    }
    return cardElement(code, { action: `play ${code}`, key: String(i === 5 ? 0 : i + 1), classes, note });
  }));
  $("hand-caption").textContent = strict ? "Your hand — the marked cards may be played" : "Your hand";
  const myTricks = deal.tricks_won[me];
  let info = `${myTricks} trick${myTricks === 1 ? "" : "s"}`;
  if (deal.points) {
    info += ` · ${deal.points[me]} points`;
    if (deal.pending && deal.pending[me]) info += ` (+${deal.pending[me]} once you win a trick)`;
  } else {
    info += " · no running points under these rules";
  }
  $("my-info").textContent = info;

  drawActions();
  restoreFocus(focused);
  drawScore();
  if (!statusIsError) prompt();
}

/** Where the focus is, if in the hand or the actions (both drawn anew by each frame). */
function focusPlace() {
  const a = document.activeElement;
  for (const area of ["hand", "actions"]) {
    const box = $(area);
    if (a && box.contains(a)) return { area, action: a.dataset ? a.dataset.action : null, index: [...box.children].indexOf(a) };
  }
  return null;
}

/** Focus back where it was: the same action, else the card that may be played nearest the same place (never
 *  one that may not: Enter on it only gave an error, a play-test), else the first action, else the hand. */
function restoreFocus(place) {
  if (!place || !$("modal").hidden) return;
  const cards = [...$("hand").querySelectorAll("button.card")];
  const same = place.action && [...$(place.area).querySelectorAll("[data-action]")]
    .find((b) => b.dataset.action === place.action && !b.classList.contains("unplayable"));
  const at = place.area === "hand" && place.index >= 0 ? Math.min(place.index, cards.length - 1) : 0;
  const playable = cards.map((c, i) => [c, i]).filter(([c]) => !c.classList.contains("unplayable"))
    .sort(([, i], [, j]) => Math.abs(i - at) - Math.abs(j - at) || i - j);
  const target = same || (playable.length ? playable[0][0] : null) || $("actions").querySelector("button") || $("hand");
  if (target !== document.activeElement) target.focus({ preventScroll: true });
}

function column(card, s) {
  return h("div", { class: "trick-seat" }, card, h("span", { class: "seat-label", text: s === seat ? "You" : name(s) }));
}

function actionButton(action, label, key, extra = "") {
  const b = h("button", { type: "button", class: `action ${extra}`.trim(), "data-action": action, title: key ? `key ${key}` : "" },
              ...(Array.isArray(label) ? label : [label]));
  if (key) b.appendChild(h("kbd", { text: key }));
  b.addEventListener("click", () => onAction(action));
  return b;
}

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  const acts = legal();
  const deal = view.deal;
  if (acts.includes("exchange")) box.append(actionButton("exchange", spoken(`Exchange ${cardName(deal.exchange_card, style())}`), "x"));
  if (acts.includes("close")) box.append(actionButton("close", "Close the talon", "c"));
  for (const a of acts.filter((x) => x.startsWith("marry "))) {
    const s = a.slice(6);
    box.append(actionButton(a, [`Declare ${deal.marriage_points[s]} `, suitIcon(s, style(), 18)], "m", "marry"));
  }
  // Bright only when it looks right (66 counted); otherwise a claim is there but nothing recommends it.
  const likely = deal.points && deal.points[seat] >= 66;
  if (acts.includes("claim")) box.append(actionButton("claim", "Claim 66", "g", likely ? "claim" : ""));
  if (acts.includes("pass")) box.append(actionButton("pass", "Pass", "p"));
  if (view.phase !== "playing") {
    const label = view.phase === "game_over" ? "Game over — see the result" : "Next deal";
    box.append(actionButton(view.phase === "game_over" ? "result" : "next", label, "⏎", "primary"));
  }
  if (myTurn() && againstComputer()) box.append(actionButton("analyse", "What is each move worth?", "?", "quiet"));
}

/** The analysis (the solver's advice) is for games against the computer only, never between two people. */
function againstComputer() {
  return view.players[1 - view.seat].kind === "computer";
}

/** Game points a seat still needs (a deal may take it below 0: that is 0 left). */
function left(s) {
  return Math.max(0, view.score[s]);
}

function drawScore() {
  const me = seat, opp = 1 - seat;
  const target = view.target;
  $("countdown").replaceChildren(...[me, opp].map((s) => {
    const need = Math.max(0, view.score[s]);
    const pips = Array.from({ length: target }, (_, i) => h("span", { class: i < need ? "pip on" : "pip" }));
    return h("div", { class: `count-row ${s === me ? "me" : "opp"}` },
      h("span", { class: "who", text: s === me ? "You" : name(s) }), h("span", { class: "pips" }, ...pips),
      h("b", { text: String(need) }));
  }));
  $("sheet-me").textContent = "You";
  $("sheet-opp").textContent = name(opp);
  const body = $("sheet").querySelector("tbody");
  body.replaceChildren(...view.sheet.map((row) => h("tr", {},
    h("td", { text: String(row.deal) }),
    h("td", { text: row.winner === me ? `−${row.game_points}` : "" }),
    h("td", { text: row.winner === opp ? `−${row.game_points}` : "" }),
    h("td", { class: "why", text: row.why, title: row.text }))),
    h("tr", { class: "total" }, h("td", { text: "left" }), h("td", { text: String(left(me)) }),
      h("td", { text: String(left(opp)) }), h("td", {})));
}

function logEvent(e) {
  const who = e.seat === null ? "neutral" : e.seat === seat ? "me" : "opp";
  const log = $("log");
  if (view && !view.open_tricks && (e.kind === "play" || e.kind === "deal")) {
    // Without open_tricks you may not look back: a trick's cards leave the log once the next one begins.
    log.querySelectorAll("li.ev-play.done").forEach((li) => li.remove());
  }
  if (e.kind === "trick") log.querySelectorAll("li.ev-play").forEach((li) => li.classList.add("done"));
  const item = h("li", { class: `ev ev-${e.kind} by-${who}` }, ...spoken(e.text));
  log.appendChild(item);
  log.scrollTop = log.scrollHeight;  // the list scrolls to its newest line; the page stays where it is
}

function setStatus(text, error = false) {
  statusIsError = error;
  const s = $("status");
  s.replaceChildren(...spoken(text));
  s.classList.toggle("error", error);
  // An error says its piece, then the line goes back to whose turn it is (it hid "Your lead" for good).
  if (error && view && $("game").dataset.connected !== "refused") {
    const shown = ++errorsShown;
    setTimeout(() => { if (statusIsError && shown === errorsShown && socketOpen()) { statusIsError = false; prompt(); } },
               STATUS_NOTE_MS);
  }
}

/** ``text`` as shown, and in words for a screen reader where they differ ("Q♦": "Queen of diamonds"). */
function spoken(text) {
  const words = speakable(text, style());
  if (words === text) return [text];
  return [h("span", { "aria-hidden": "true", text }), h("span", { class: "sr-only", text: words })];
}

/** Say ``text`` to a screen reader (a visually hidden live log; the last few lines are kept). */
function announce(text) {
  const box = $("announce");
  box.append(h("p", { text }));
  while (box.children.length > 4) box.firstElementChild.remove();
}

function prompt() {
  const deal = view.deal;
  const acts = legal();
  if (view.phase === "game_over") return setStatus(view.winner === seat ? "You won the Bummerl!" : `${name(1 - seat)} won the Bummerl.`);
  if (view.phase === "deal_over") return setStatus("The deal is over — Enter for the next deal");
  if (view.withdrawn) return setStatus("You withdrew this invitation: nobody can take the other seat");
  if (view.friend_to_come) return setStatus("Waiting for your friend to open the invitation link (the friend page has it to copy)");
  // A friend away on their turn is not thinking (presence.js shows the countdown to the claim).
  if (view.waiting_for === 1 - seat && isAway(1 - seat)) {
    return setStatus(`${name(1 - seat)} ${isStalled(1 - seat) ? "has not moved for a long while" : "is away"} — it is their turn`);
  }
  if (view.thinking || view.waiting_for !== seat) return setStatus(`${name(1 - seat)} is thinking…`);
  if (!acts.length) return setStatus("");
  if (acts.includes("pass")) return setStatus(`All cards are played: claim 66 (g) if you have it, or ${deal.pass_words || "pass (p)"}`);
  if (deal.married) {
    // Only the king when the rules say a marriage leads its king: the legal plays tell.
    const due = acts.filter((a) => a.startsWith("play ")).length > 1 ? "king or queen" : "king";
    return setStatus(`Lead the ${due} of your marriage (${suitName(deal.married, style())})${acts.includes("claim") ? " — or claim 66 (g)" : ""}`);
  }
  // On a touch screen a card is tapped, and no key is at hand (a play-test: "1–5 or click" on a phone).
  const touch = window.matchMedia("(pointer: coarse)").matches;
  if (marryMode) return setStatus(touch ? "Which marriage? Tap its king or queen" : "Which marriage? Press the number of its king or queen, or click it (Esc cancels)");
  const keys = deal.hand.length > 5 ? "1–5, 0" : `1–${deal.hand.length}`;
  const how = touch ? "tap it" : `${keys} or click`;
  if (deal.lead) return setStatus(`${name(1 - seat)} led ${cardName(deal.lead, style())}: your card (${how})`);
  const extras = [["exchange (x)", "exchange"], ["close (c)", "close"], ["claim 66 (g)", "claim"]].filter(([, a]) => acts.includes(a)).map(([k]) => k);
  if (acts.some((a) => a.startsWith("marry"))) extras.push("declare a marriage (m)");
  const more = extras.map((e) => (touch ? e.replace(/ \(.\)$/, "") : e));  // the buttons below, without keys
  setStatus(`Your lead: ${touch ? "tap a card to play it" : `play a card (${how})`}${more.length ? "; or " + more.join(", ") : ""}`);
}

// ----------------------------------------------------------------------------- acting

function act(action) {
  if (!view) return;
  // A card clicked (or Enter on a focused card) once the deal is over: the summary, not a refused play.
  if (view.phase === "deal_over" && action !== "next") return showSummary();
  if (view.phase === "game_over") return showGameOver();
  if (view.phase === "playing" && !myTurn()) {
    setStatus(`Wait — it is ${name(1 - seat)}'s turn`, true);
    return;
  }
  marryMode = false;
  statusIsError = false;
  send({ type: "act", action });
}

/** A card clicked or its key pressed: plays it; the king or queen of a marriage you may declare declares it
 *  first (as in the terminal game: click or press again to lead it). A click played it at once, the marriage
 *  lost without a word (a play-test), while its key declared. */
function onCard(code) {
  if ("KQ".includes(code[0]) && legal().includes(`marry ${code[1]}`)) {
    act(`marry ${code[1]}`);
    return;
  }
  act(`play ${code}`);
}

function onAction(action) {
  if (action === "claim") return confirmClaim();
  if (action === "pass") return confirmPass();
  if (action === "close") return confirmClose();
  if (action === "next") return nextDeal();
  if (action === "result") return showGameOver();
  if (action === "analyse") return requestAnalysis();
  act(action);
}

function nextDeal() {
  if (!view) return;
  if (view.phase === "playing") {  // a friend started the next deal first: the summary has nothing left to do
    if (modalKind === "summary") closeModal();
    return;
  }
  if (view.phase === "game_over") return showGameOver();
  closeModal();
  nextAskedIn = view.deal_number;
  act("next");
}

function marry() {
  const options = legal().filter((a) => a.startsWith("marry "));
  if (options.length === 1) return act(options[0]);
  if (options.length === 0) return act(`marry ${marriageHint()}`);
  marryMode = true;
  draw();
}

function marriageHint() {
  const hand = view.deal.hand;
  for (const s of ["C", "D", "H", "S"]) if (hand.includes(`K${s}`) && hand.includes(`Q${s}`)) return s;
  return view.deal.trump;
}

/** A key for a place in the hand: that card, as if clicked. */
function playSlot(i) {
  const hand = sortedHand(view.deal);
  if (i >= hand.length) return setStatus(`You have no card ${i === 5 ? 0 : i + 1}`, true);
  onCard(hand[i]);
}

function showSheet() {
  const box = document.querySelector(".score-box");
  box.scrollIntoView({ block: "nearest" });
  box.classList.remove("flash");
  void box.offsetWidth;
  box.classList.add("flash");
}

// ----------------------------------------------------------------------------- dialogs

function openModal(kind, title, body, buttons) {
  // The page behind a dialog is inert (Tab stays in the dialog); closing it gives the focus back.
  if ($("modal").hidden) {
    const a = document.activeElement;
    opener = a && a !== document.body ? { node: a, action: a.dataset ? a.dataset.action : null } : null;
    for (const node of document.body.children) if (node !== $("modal")) node.inert = true;
  }
  modalKind = kind;
  $("modal-title").textContent = title;
  $("modal-body").replaceChildren(...body.filter(Boolean));  // (null: a part left out)
  $("modal-buttons").replaceChildren(...buttons.filter(Boolean));
  $("modal").hidden = false;
  $("modal").dataset.kind = kind;
  const primary = $("modal-buttons").querySelector(".primary") || $("modal-buttons").querySelector("button");
  if (primary) primary.focus({ preventScroll: true });  // a tall dialog opens at its title, not its buttons
  document.querySelector("#modal .dialog").scrollTop = 0;
  keepFocusSeen();
}

/** A dialog taller than the screen opens at its title: a focused button below the screen (e.g. at 400% zoom)
 *  hands the focus to the title, where it is seen; Tab goes on from there. */
function keepFocusSeen() {
  const a = document.activeElement;
  const bottom = Math.min(document.querySelector("#modal .dialog").getBoundingClientRect().bottom, window.innerHeight);
  if (a && a.closest("#modal-buttons") && a.getBoundingClientRect().bottom > bottom) $("modal-title").focus({ preventScroll: true });
}

function closeModal() {
  modalKind = null;
  $("modal").hidden = true;
  $("modal").dataset.kind = "";
  for (const node of document.body.children) node.inert = false;
  // Back to the opener; if a frame drew it anew meanwhile, to its like (the same action), else to the hand.
  const was = opener;
  opener = null;
  let target = was && was.node.isConnected ? was.node : null;
  if (!target && was && was.action) target = document.querySelector(`#game [data-action="${CSS.escape(was.action)}"]`);
  // Settings or Keys looked at after a deal: back to its Next deal (or result) button, where Enter goes on as
  // the status line says (on the header's button, Enter opened Settings again: a play-test).
  const header = target && (target.id === "btn-settings" || target.id === "btn-help");
  const goOn = view && view.phase !== "playing" && $("actions").querySelector('[data-action="next"], [data-action="result"]');
  if (header && goOn) target = goOn;
  if (!target) target = $("hand").querySelector("button.card:not(.unplayable)") || $("hand");
  target.focus({ preventScroll: true });
}

function button(label, onclick, { primary = false, attrs = {} } = {}) {
  return h("button", { type: "button", class: primary ? "primary" : "", onclick, ...attrs }, label);
}

/** Ask before ``action``, which cannot be taken back (an illegal one goes straight on, to be explained). */
function confirmFirst(action, title, text, label) {
  if (!legal().includes(action)) return act(action);
  openModal(action, title, [h("p", { text })], [
    button(label, () => { closeModal(); act(action); }, { primary: true, attrs: { "data-confirm": action } }),
    button("Cancel", closeModal),
  ]);
}

function yourPoints(otherwise = "") {
  return view.deal.points ? ` You have ${view.deal.points[seat]} points.` : otherwise;
}

function confirmClaim() {
  confirmFirst("claim", "Claim 66?", `Claiming ends the deal now: right if you have 66 or more.${
    yourPoints(" (Count your points: a wrong claim loses the deal.)")}`, "Claim 66");
}

/** A pass after the last trick cannot be taken back, and with 66 or more it scores less than a claim. */
function confirmPass() {
  const means = view.deal.pass_words ? ` If you pass, ${view.deal.pass_words.replace(/^pass \(p\): /, "")}.` : "";
  confirmFirst("pass", "Pass without claiming?",
    `The deal is scored without a claim: with 66 or more, a claim scores at least as much (and if you closed, passing loses the deal).${means}${
      yourPoints()}`, "Pass");
}

/** A close cannot be taken back and changes the scoring: asked first, as in the terminal game. */
function confirmClose() {
  confirmFirst("close", "Close the talon?", "Nobody draws any more, and you must reach 66 or lose the deal.", "Close the talon");
}

/** Give the Bummerl up (a game with a friend): the friend wins it, rated like any win. Asked first. */
function confirmResign() {
  if (!view || $("btn-resign").hidden) return;
  const opp = name(1 - seat);
  openModal("resign", "Resign the Bummerl?", [h("p", {
    text: `${opp} wins the Bummerl${view.counts_in_ratings ? " and the game counts in both ratings" : ""}. This cannot be taken back.` })], [
    button("Resign", resign, { primary: true, attrs: { "data-confirm": "resign" } }),
    button("Keep playing", closeModal),
  ]);
}

async function resign() {
  closeModal();
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/resign`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: await token() }),
    });
    if (!response.ok) setStatus(`Could not resign: ${(await response.json().catch(() => ({}))).error || response.statusText}`, true);
  } catch (err) {
    setStatus(`Could not resign: ${err.message}`, true);  // the view that ends the game comes by the socket
  }
}

function confirmLeave() {
  openModal("leave", "Leave the game?", [h("p", { text: "The game is saved: Continue on the home page takes it up again." })], [
    button("Leave", () => { closedByUs = true; location.href = "/"; }, { primary: true, attrs: { "data-confirm": "leave" } }),
    button("Stay", closeModal),
  ]);
}

function dealSummaryBody() {
  const deal = view.deal;
  const result = view.result || { winner: null, game_points: 0, reason: "draw", text: "all cards were played with equal points" };
  const me = seat, opp = 1 - seat;
  const taken = [[], []];
  for (const t of deal.tricks) taken[t.winner].push(t.lead, t.follow);
  const events = gameEvents.filter((e) => e.deal === view.deal_number);
  const rows = [me, opp].map((s) => h("tr", {},
    h("th", { text: s === me ? "You" : name(s) }),
    h("td", { text: String(deal.tricks_won[s]) }),
    h("td", { text: pointsCell(deal, events, s) }),
    h("td", {}, h("div", { class: "taken" }, ...taken[s].map((c) => cardElement(c, { classes: "tiny" }))))));
  const body = [
    h("p", { class: "why", text: `Why: ${result.text}.` }),
    deal.closed_by !== null && deal.closed_by !== undefined
      ? h("p", { class: "closed", text: `${deal.closed_by === me ? "You" : name(deal.closed_by)} closed the talon.` }) : null,
    h("table", { class: "summary" }, h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr-only", text: "player" })), h("th", { text: "tricks" }),
      h("th", { text: "points" }), h("th", { text: "cards taken" }))), h("tbody", {}, ...rows)),
    h("p", { text: `Bummerl, still needed: you\u00a0${left(me)} · ${name(opp)}\u00a0${left(opp)}` }),
  ];
  return body;
}

/** A seat's points with what they hold besides the cards taken, as the terminal's summary has them:
 *  "55 (20; 20 not counted)", "65 (+10 last trick)". */
function pointsCell(deal, events, s) {
  if (!deal.points) return "–";
  const notes = [];
  const marriages = events.filter((e) => e.kind === "marry" && e.seat === s && e.data && e.data.value).map((e) => e.data.value);
  if (marriages.length) notes.push(marriages.join("+"));
  if (deal.pending && deal.pending[s]) notes.push(`${deal.pending[s]} not counted`);
  const bonus = events.filter((e) => e.kind === "trick" && e.seat === s).reduce((sum, e) => sum + ((e.data && e.data.bonus) || 0), 0);
  if (bonus) notes.push(`+${bonus} last trick`);
  return `${deal.points[s]}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}

function showSummary() {
  const result = view.result || { winner: null, game_points: 0 };
  const gp = `${result.game_points} game point${result.game_points === 1 ? "" : "s"}`;
  const title = result.winner === null ? `Deal ${view.deal_number} is a draw`
    : result.winner === seat ? `Deal ${view.deal_number}: you win ${gp}` : `Deal ${view.deal_number}: ${name(result.winner)} wins ${gp}`;
  const over = view.phase === "game_over";
  openModal("summary", title, dealSummaryBody(), [
    over ? button("See the result", showGameOver, { primary: true, attrs: { "data-action": "result" } })
         : button("Next deal", nextDeal, { primary: true, attrs: { "data-action": "next" } }),
    button("Look at the table", closeModal),
  ]);
}

function showGameOver() {
  const won = view.winner === seat;
  const body = [
    h("p", { class: won ? "big win" : "big loss", text: won ? "You won the Bummerl!" : `${name(1 - seat)} won the Bummerl.` }),
    view.ended ? h("p", { class: "why", text: view.ended.text }) : null,
    h("p", { text: `Still needed at the end: you ${left(seat)} · ${name(1 - seat)} ${left(1 - seat)} (${view.sheet.length} deals)` }),
    h("div", { id: "review" }),
  ];
  openModal("over", "Game over", body, [
    // Between two people "again" is the rematch with this friend (seats swapped).
    button(againstComputer() ? "Play again" : "Rematch", playAgain, { primary: true, attrs: { "data-action": "again" } }),
    // A Bummerl won away from the table (presence.js) was not played out: no review, no game record.
    view.ended ? null : button("Review my game", requestReview, { attrs: { "data-action": "review" } }),
    view.ended ? null : h("a", { class: "button", href: `/api/games/${encodeURIComponent(gameId)}/record`, download: `bummerl-${gameId}.json` }, "Game record"),
    h("a", { class: "button", href: "/" }, "Home"),
  ]);
}

async function playAgain() {
  if (!againstComputer()) {  // not a new game against the computer: the rematch with this friend, at once
    try {
      const answer = await askRematch(view.invite);
      closedByUs = true;
      location.href = answer.url;
    } catch (err) {  // e.g. a browser without the player's name (the game opened by its link elsewhere)
      const said = `Could not ask for the rematch: ${err.message}.`;
      setStatus(said, true);
      if (modalKind === "over") {  // said where the player looks (the status line is behind the dialog)
        const old = document.getElementById("rematch-problem");
        if (old) old.remove();
        $("modal-body").append(h("p", { class: "why loss", id: "rematch-problem", text: said }));
      }
    }
    return;
  }
  try {
    const answer = await startGame(settings);
    closedByUs = true;
    location.href = answer.url;
  } catch (err) {
    setStatus(`Could not start a game: ${err.message}`, true);
  }
}

function requestReview() {
  const box = document.getElementById("review");
  if (box) box.replaceChildren(h("p", { class: "wait", text: "Looking at each of your choices… (this takes a moment)" }));
  send({ type: "review" });
}

function actionText(a) {
  if (a.startsWith("play ")) return `play ${cardName(a.slice(5), style())}`;
  if (a.startsWith("marry ")) return `declare ${suitName(a.slice(6), style())}`;
  return a === "claim" ? "claim 66" : a;
}

function showReview(msg) {
  const box = document.getElementById("review");
  if (!box) return;
  if (!msg.mistakes.length) {
    box.replaceChildren(h("p", { text: `None of your ${msg.decisions} choices lost game points on average. Well played!` }));
    return;
  }
  box.replaceChildren(h("p", { text: `Where game points were lost (of ${msg.decisions} choices):` }),
    h("ol", { class: "review" }, ...msg.mistakes.slice(0, 8).map((m) => h("li", {
      text: `Deal ${m.deal}, trick ${m.trick}: you chose ${actionText(m.chosen.action)} (${fmt(m.chosen.mean)}); ` +
            `${actionText(m.best.action)} was worth ${fmt(m.best.mean)} — ${m.loss.toFixed(2)} game points on average`,
    }))));
}

function fmt(x) {
  return (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);
}

function requestAnalysis() {
  if (!againstComputer()) return setStatus("The analysis is only for games against the computer", true);
  if (!myTurn()) return setStatus("The analysis is for your turn", true);
  openModal("analysis", "What is each move worth?", [h("p", { class: "wait", text: "Thinking over the cards you cannot see…" })],
            [button("Close", closeModal, { primary: true })]);
  send({ type: "analyse" });
}

function showAnalysis(msg) {
  if (modalKind !== "analysis") return;
  // In a Bummerl each move also has the chance to win the Bummerl from this score (bummerl_win).
  const chances = msg.actions.filter((s) => s.bummerl_win != null).map((s) => s.bummerl_win);
  const top = Math.max(...chances);
  const rows = msg.actions.map((s) => h("tr", {},
    h("td", { text: actionText(s.action) }), h("td", { class: "num", text: fmt(s.mean) }),
    h("td", { class: "num", text: `${Math.round(100 * s.win_share)}%` }),
    h("td", { class: "num range", text: s.ci95 ? `${fmt(s.ci95[0])} … ${fmt(s.ci95[1])}` : "exact" }),
    ...(chances.length ? [h("td", { class: s.bummerl_win >= top - 1e-9 ? "num best" : "num",
                                    text: `${(100 * s.bummerl_win).toFixed(1)}%` })] : [])));
  const heads = ["move", "mean", "wins", "95% range", ...(chances.length ? ["Bummerl"] : [])];
  $("modal-body").replaceChildren(
    h("p", { text: `Mean game points for you over the deals consistent with what you know (${msg.note}).` }),
    h("table", { class: "analysis" }, h("thead", {}, h("tr", {}, ...heads.map((t) =>
      h("th", t === "95% range" ? { class: "range", text: t } : { text: t })))), h("tbody", {}, ...rows)),
    ...(chances.length ? [h("p", { class: "hint", text: "Bummerl: your chance to win the Bummerl from this score after the move." })] : []),
    h("p", { class: "hint", text: "Values assume both sides would play on seeing all cards; a guide, not gospel." }));
  keepFocusSeen();  // (the table made the dialog taller)
}

function showSettings() {
  const select = (label, key, options) => h("label", {}, `${label} `,
    h("select", { "data-setting": key, onchange: (e) => { settings[key] = e.target.value; saveSettings(settings); if (view) draw(); } },
      ...options.map(([value, text]) => h("option", { value, selected: settings[key] === value }, text))));
  const faces = { french: "French", german: "German" };
  openModal("settings", "Settings", [
    select("Card faces of the next game", "cards", [["french", "French (♣ ♦ ♥ ♠)"], ["german", "German (Eichel, Schellen, Herz, Laub)"]]),
    view ? h("p", { class: "hint", text: `This game keeps its ${faces[style()] || style()} faces, as its log does.` }) : null,
    select("Single-key shortcuts (1–5, x, c, m, g, q …)", "keys", [["on", "on"], ["off", "off: Tab and Enter only"]]),
    select("Computer's speed", "speed", [["instant", "instant"], ["fast", "fast"], ["normal", "normal"], ["slow", "slow"]]),
    select("Level of the next game", "level", [["easy", "easy"], ["medium", "medium"], ["hard", "hard"], ["expert", "expert"]]),
    select("Rules of the next game", "rules", ["standard", "soft", "sharp", "tompa", "vu", "sixty-six"].map((p) => [p, p])),
  ], [button("Done", closeModal, { primary: true })]);
}

/** The keys, only those this game's rules allow (no close under vu, no claim or pass where 66 is claimed
 *  automatically: the view's ``flags``). */
function showHelp() {
  const flags = (view && view.flags) || {};
  const sixtySix = view ? view.sixty_six : true;
  const keys = [["1–5", "play the card in that place, as a click on it does (the king or queen of a marriage you may declare declares it first; press or click again to lead)"],
    sixtySix ? ["0", "play your sixth card"] : null,
    ["x", view ? `exchange the trump ${view.exchange_rank}` : "exchange the trump jack (the nine in Sixty-Six)"],
    flags.allow_close === false ? null : ["c", "close the talon (asks first)"], ["m", "declare a marriage (20 or 40)"],
    flags.auto_claim ? null : ["g or 6", "claim 66 (asks first)"], flags.auto_claim ? null : ["p", "pass after the last trick (asks first)"],
    view && !againstComputer() ? null : ["?", "what is each move worth? (against the computer)"],
    ["s", "the score sheet"], ["Enter", "after a deal: its summary, then the next deal"],
    ["n", "at the end of the Bummerl: play again"], ["Esc", "cancel, close a dialog"], ["q", "home (asks first; the game is saved)"]].filter(Boolean);
  const off = settings.keys === "off";
  openModal("help", "Keys", [
    off ? h("p", { class: "hint", text: "Single-key shortcuts are off (Settings): Tab and Enter reach every card and button." }) : null,
    h("table", { class: "keys" }, ...keys.map(([k, t]) => h("tr", {}, h("td", {}, h("kbd", { text: k })), h("td", { text: t })))),
    h("p", { class: "hint", text: "With a screen reader, these keys work in its focus mode; or turn them off in Settings and use Tab and Enter." }),
    h("p", {}, h("a", { href: "/rules", target: "_blank", rel: "noopener", text: "The rules of the game" }), " (a new tab)"),
  ], [button("Close", closeModal, { primary: true })]);
}

// ----------------------------------------------------------------------------- keys

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = e.target && e.target.tagName;
  if (!$("modal").hidden) {
    if (e.key === "Escape") { e.preventDefault(); closeModal(); }
    return; // inside a dialog, Enter and Tab work on its buttons
  }
  if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
  if ((tag === "BUTTON" || tag === "A") && (e.key === "Enter" || e.key === " ")) return;
  if (!view) return;
  const k = e.key;
  if (settings.keys === "off" && k !== "Escape") return;  // Settings: single-key shortcuts off
  let handled = true;
  if (k >= "1" && k <= "5") playSlot(Number(k) - 1);
  else if (k === "0") playSlot(5);
  else if (k === "6") confirmClaim();
  else if (k === "s") showSheet();
  else if (k === "x") act("exchange");
  else if (k === "c") confirmClose();
  else if (k === "m") marry();
  else if (k === "g") confirmClaim();
  else if (k === "p") confirmPass();
  else if (k === "Enter") { if (view.phase === "playing") handled = false; else if (view.phase === "game_over") showGameOver(); else showSummary(); }
  else if (k === "n") { if (view.phase === "game_over") playAgain(); else handled = false; }
  else if (k === "?") requestAnalysis();
  else if (k === "Escape") { if (marryMode) { marryMode = false; statusIsError = false; draw(); } }
  else if (k === "q") confirmLeave();
  else handled = false;
  if (handled) e.preventDefault();
});

$("btn-settings").addEventListener("click", showSettings);
$("btn-help").addEventListener("click", showHelp);
$("btn-resign").addEventListener("click", confirmResign);
$("modal").addEventListener("click", (e) => { if (e.target === $("modal") && modalKind !== "claim") closeModal(); });
window.addEventListener("storage", () => { settings = loadSettings(); if (view) draw(); });
connect();
