// Absence and clocks in a game with a friend: the opponent's "away" with the countdown to the claim, the
// Claim button (enabled when the server says so), and both clocks when the game has them.
// The server decides everything: it sends `presence` (in each view and as its own message on changes);
// this module only counts down locally from the moment a message arrived. Names are shown as text only.

import { h, knownGames } from "./settings.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let state = null;      // the last presence object
let seat = 0;
let names = ["", ""];
let received = 0;      // performance.now() when `state` arrived
let claiming = false;
let problem = "";
const LOW_MS = 20_000;  // a clock under 20 s is shown in red

// The box is built once and then only its texts change: a focused Claim button stays where it is, and the
// ticking clocks are no live region. What changes (away, the claim allowed, back, the end, a low clock) is said
// once in a visually hidden live region.
const box = h("div", { id: "presence", class: "presence", hidden: true });
const live = h("div", { id: "presence-news", class: "sr-only", role: "status" });
const status = document.getElementById("status");
if (status) status.before(box, live);

function clockSpan(mine) {
  const time = h("span", { class: "time" });
  const who = h("b");
  const node = h("span", { class: "clock", id: mine ? "clock-me" : "clock-opp", role: "timer" }, who, " ", time);
  return { node, who, time };
}
const clocks = { me: clockSpan(true), opp: clockSpan(false), control: h("small") };
const clocksLine = h("p", { class: "clocks", hidden: true }, clocks.me.node, " · ", clocks.opp.node, clocks.control);
const awayText = h("span");
const countdown = h("span", { id: "away-countdown" });
const awayWait = h("span", {}, " You may claim the Bummerl in ", countdown, ".");
const awayLine = h("p", { class: "away", id: "away", hidden: true }, awayText, awayWait);
const claimButton = h("button", { type: "button", class: "primary", "data-action": "claim-bummerl", onclick: claim },
  "Claim the Bummerl");
const claimLine = h("p", { hidden: true }, claimButton);
const endedLine = h("p", { class: "ended", id: "ended", hidden: true });
const problemLine = h("p", { class: "loss", hidden: true });
box.append(clocksLine, awayLine, claimLine, endedLine, problemLine);
let said = "";  // the last news said in the live region
let wasAway = false;

function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function elapsed() {
  return performance.now() - received;
}

function clockLeft(s) {
  const c = state.clocks;
  return c.left_ms[s] - (c.running === s ? elapsed() : 0);
}

async function claim() {
  const known = knownGames()[gameId];
  if (!known || !known.token) return;
  claiming = true;
  problem = "";
  draw();
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/claim`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: known.token }),
    });
    if (!response.ok) problem = (await response.json()).error || response.statusText;
  } catch (err) {
    problem = `Could not claim: ${err.message}`;
  } finally {
    claiming = false;
    draw();
  }
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function show(node, on) {
  if (node.hidden === on) node.hidden = !on;
}

function drawClock(c, s) {
  const running = state.clocks.running === s;
  const low = clockLeft(s) < LOW_MS;
  c.node.classList.toggle("running", running);
  c.node.classList.toggle("low", low);
  c.node.dataset.seat = String(s);
  c.node.dataset.running = running ? "true" : "false";
  setText(c.who, s === seat ? "You" : names[s]);
  setText(c.time, mmss(clockLeft(s)));
  return low;
}

/** Whether seat ``s`` is away (no connection while the game is on, or here but not moving on its turn for a
 *  long while), as of the server's last word. */
export function isAway(s) {
  return Boolean(state && state.seats[s] && state.seats[s].away && !state.ended);
}

/** Whether seat ``s`` is here but has not moved on its turn for a long while (a game without clocks). */
export function isStalled(s) {
  return isAway(s) && Boolean(state.seats[s].stalled);
}

function draw() {
  if (!state) return;
  const opp = 1 - seat;
  const away = isAway(opp);
  const news = [];
  show(clocksLine, Boolean(state.clocks));
  if (state.clocks) {
    if (drawClock(clocks.me, seat)) news.push("Under 20 seconds left on your clock.");
    drawClock(clocks.opp, opp);
    setText(clocks.control, ` (${state.clocks.control})`);
  }
  const unopened = away && state.seats[opp].opened === false;
  const claimable = away && state.seats[opp].claim_in_ms !== null && state.seats[opp].claim_in_ms !== undefined;
  const wait = claimable ? state.seats[opp].claim_in_ms - elapsed() : 0;
  const may = state.can_claim || (claimable && wait <= 0);
  show(awayLine, away);
  show(claimLine, claimable);
  if (unopened && !claimable) {
    // A rematch seats the friend at once: until they open the game, nobody may claim it from them.
    setText(awayText, `${names[opp]} has not opened this game yet.`);
    show(awayWait, false);
    news.push(awayText.textContent);
  } else if (away) {
    // Away (no connection), a host who never opened the game, or here but not moving on their turn for a
    // long while (a game without clocks).
    const gone = state.seats[opp].stalled ? `${names[opp]} has not moved for a long while.`
      : unopened ? `${names[opp]} has not opened this game yet.` : `${names[opp]} is away.`;
    setText(awayText, may ? `${gone} You may claim the Bummerl, or keep waiting.` : gone);
    show(awayWait, !may);
    if (!may) setText(countdown, mmss(wait));
    news.push(may ? awayText.textContent : `${gone} You may claim the Bummerl in ${mmss(state.seats[opp].claim_in_ms)}.`);
  } else if (wasAway && !state.ended) {
    news.push(`${names[opp]} is back.`);
  }
  wasAway = away;
  claimButton.disabled = !state.can_claim || claiming;
  show(endedLine, Boolean(state.ended));
  if (state.ended) { setText(endedLine, state.ended.text); news.push(state.ended.text); }
  show(problemLine, Boolean(problem));
  if (problem) { setText(problemLine, problem); news.push(problem); }
  box.hidden = !(state.clocks || away || state.ended || problem);
  box.dataset.away = away ? "true" : "false";
  box.dataset.claim = state.can_claim ? "true" : "false";
  // Said once when it changes (not the running clock: the countdown is said as it was when it began).
  const text = news.join(" ");
  if (text !== said) {
    said = text;
    if (text) setText(live, text);
  }
}

window.addEventListener("bummerl:message", (e) => {
  const msg = e.detail;
  if (msg.type === "view") {
    seat = msg.seat;
    names = msg.players.map((p) => p.name);
    if (!msg.presence) return;
    state = msg.presence;
  } else if (msg.type === "presence") {
    state = msg;
  } else {
    return;
  }
  received = performance.now();
  problem = "";
  draw();
});

setInterval(() => { if (state && (state.clocks || !box.hidden)) draw(); }, 250);
