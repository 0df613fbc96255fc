// The replay viewer: steps through the deals and tricks of a game's record with every card shown (a finished
// game, or the deals that are over of a game whose spectators may replay them). The frames come from the
// server (the engine replays the record); this page only draws them. Names and texts go in as textContent.

import { cardName, cardSvg } from "./cards.js";
import { h } from "./settings.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.replace(/^\/replay\//, ""));
let replay = null;
let dealIndex = 0;
let stepIndex = 0;

function card(code, small = false) {
  const node = h("div", { class: small ? "card small" : "card", "data-card": code, title: cardName(code, replay.cards) });
  node.appendChild(cardSvg(code, replay.cards));
  return node;
}

function seatName(seat) {
  return replay.players[seat];
}

function draw() {
  const deal = replay.deals[dealIndex];
  const frame = deal.frames[stepIndex];
  $("replay").dataset.deal = String(deal.number);
  $("replay").dataset.step = String(stepIndex);
  for (const [i, button] of [...$("deals").children].entries()) button.setAttribute("aria-current", String(i === dealIndex));
  $("step-counter").textContent = `deal ${deal.number} · step ${stepIndex} of ${deal.frames.length - 1}`;
  for (const seat of [0, 1]) {
    const dealer = deal.dealer === seat ? " (dealer)" : "";
    $(`name-${seat}`).textContent = `${seatName(seat)}${dealer}`;
    $(`hand-${seat}`).replaceChildren(...frame.hands[seat].map((c) => card(c)));
  }
  $("talon").replaceChildren(...frame.talon.map((c) => card(c, true)));
  if (frame.closed_by !== null) $("talon").append(h("span", { text: ` closed by ${seatName(frame.closed_by)}` }));
  $("trump").replaceChildren(...(frame.trump_card ? [card(frame.trump_card)] : [h("span", { text: frame.trump })]));
  const shown = [];
  if (frame.lead) shown.push(h("span", { text: `${seatName(1 - frame.to_move)} led:` }), card(frame.lead));
  else if (frame.trick) {
    shown.push(h("span", { text: `${seatName(frame.trick.leader)} led` }), card(frame.trick.lead),
      h("span", { text: `${seatName(1 - frame.trick.leader)}` }), card(frame.trick.follow),
      h("span", { text: `· ${seatName(frame.trick.winner)} takes it` }));
  }
  $("trick").replaceChildren(...shown);
  $("step-action").textContent = frame.action === null ? "the deal as dealt"
    : `${seatName(frame.seat)}: ${frame.action}`;
  $("texts").replaceChildren(...frame.texts.map((t) => h("li", { text: t })));
  $("counts").textContent = `Points ${frame.points[0]} – ${frame.points[1]} · tricks ${frame.tricks_won[0]} – ${
    frame.tricks_won[1]} · game points still needed ${Math.max(frame.score[0], 0)} – ${Math.max(frame.score[1], 0)}`;
  $("back").disabled = stepIndex === 0 && dealIndex === 0;
  $("next").disabled = stepIndex === deal.frames.length - 1 && dealIndex === replay.deals.length - 1;
}

function go(deal, step) {
  dealIndex = deal;
  stepIndex = step;
  draw();
}

function next() {
  const deal = replay.deals[dealIndex];
  if (stepIndex < deal.frames.length - 1) go(dealIndex, stepIndex + 1);
  else if (dealIndex < replay.deals.length - 1) go(dealIndex + 1, 0);
}

function back() {
  if (stepIndex > 0) go(dealIndex, stepIndex - 1);
  else if (dealIndex > 0) go(dealIndex - 1, replay.deals[dealIndex - 1].frames.length - 1);
}

async function start() {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay`);
  const answer = await response.json();
  if (!response.ok) {
    $("replay-status").textContent = answer.error || response.statusText;
    $("replay").dataset.state = "error";
    return;
  }
  replay = answer;
  $("replay-title").textContent = `${replay.players[0]} vs ${replay.players[1]}`;
  $("replay-rules").textContent = replay.rules_text;
  if (!replay.complete) {
    $("replay-note").textContent = "The Bummerl goes on: here are the deals that are over, every card shown (its "
      + "players agreed to this delayed view for spectators). The deal in progress is only shown as the public view.";
  } else if (replay.winner !== null) {
    $("replay-note").textContent = `${replay.players[replay.winner]} won the Bummerl.`;
  }
  if (!replay.deals.length) {
    $("replay-status").textContent = "No deal is over yet.";
    $("replay").dataset.state = "empty";
    return;
  }
  $("deals").replaceChildren(...replay.deals.map((d, i) => h("button", {
    type: "button", "data-action": `deal ${d.number}`, onclick: () => go(i, 0) }, `Deal ${d.number}`)));
  $("first").addEventListener("click", () => go(dealIndex, 0));
  $("last").addEventListener("click", () => go(dealIndex, replay.deals[dealIndex].frames.length - 1));
  $("next").addEventListener("click", next);
  $("back").addEventListener("click", back);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") next();
    else if (e.key === "ArrowLeft") back();
    else if (e.key === "Home") go(dealIndex, 0);
    else if (e.key === "End") go(dealIndex, replay.deals[dealIndex].frames.length - 1);
  });
  go(0, 0);
  $("replay").dataset.state = "ready";
}

start();
