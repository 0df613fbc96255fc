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

const box = h("div", { id: "presence", class: "presence", hidden: true, "aria-live": "polite" });
const status = document.getElementById("status");
if (status) status.before(box);

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

function clockElement(s) {
  const running = state.clocks.running === s;
  const low = clockLeft(s) < LOW_MS;
  return h("span", {
    class: `clock${running ? " running" : ""}${low ? " low" : ""}`, id: s === seat ? "clock-me" : "clock-opp", "data-seat": String(s),
    "data-running": running ? "true" : "false",
  }, h("b", { text: s === seat ? "You" : names[s] }), " ", h("span", { class: "time", text: mmss(clockLeft(s)) }));
}

function draw() {
  if (!state) return;
  const opp = 1 - seat;
  const away = state.seats[opp] && state.seats[opp].away && !state.ended;
  const children = [];
  if (state.clocks) {
    children.push(h("p", { class: "clocks" }, clockElement(seat), " · ", clockElement(opp),
      h("small", { text: ` (${state.clocks.control})` })));
  }
  if (away && state.seats[opp].opened === false) {
    // A rematch seats the friend at once: until they open the game, nobody may claim it from them.
    children.push(h("p", { class: "away", id: "away" }, `${names[opp]} has not opened this game yet.`));
  } else if (away) {
    const wait = state.seats[opp].claim_in_ms - elapsed();
    const text = state.can_claim || wait <= 0
      ? `${names[opp]} is away. You may claim the Bummerl, or keep waiting.`
      : `${names[opp]} is away. You may claim the Bummerl in `;
    const line = h("p", { class: "away", id: "away" }, text);
    if (!(state.can_claim || wait <= 0)) line.append(h("span", { id: "away-countdown", text: mmss(wait) }), ".");
    children.push(line);
    children.push(h("p", {}, h("button", {
      type: "button", class: "primary", "data-action": "claim-bummerl", disabled: !state.can_claim || claiming,
      onclick: claim,
    }, "Claim the Bummerl")));
  }
  if (state.ended) children.push(h("p", { class: "ended", id: "ended", text: state.ended.text }));
  if (problem) children.push(h("p", { class: "loss", text: problem }));
  box.replaceChildren(...children);
  box.hidden = children.length === 0;
  box.dataset.away = away ? "true" : "false";
  box.dataset.claim = state.can_claim ? "true" : "false";
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
