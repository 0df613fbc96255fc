// A player's page: rating, where they stand against the computer levels, games in progress (a link to
// play one's own seat or to watch) and finished games (replay, export of the game record).
// Every name and text from the server is shown with textContent (through h), never as HTML.

import { h } from "./settings.js";

const KEY = "bummerl.player";
const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));

function me() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

const fold = (text) => text.normalize("NFKC").toLowerCase();

function describe(g) {
  const score = `still needed ${Math.max(g.score[0], 0)}–${Math.max(g.score[1], 0)}`;
  const result = g.ended ? ` · ${g.result}: ${g.ended}` : g.result ? ` · ${g.result}`
    : g.state === "abandoned" ? " · abandoned" : "";
  const date = g.date ? ` · ${new Date(g.date).toLocaleString()}` : "";
  return `against ${g.opponent} · ${g.rules_text} · ${score}${result}${g.rated ? " · rated" : ""}${date}`;
}

async function openOwnSeat(g) {
  const player = me();
  const response = await fetch(`/api/games/${encodeURIComponent(g.id)}/seat`, {
    method: "POST", headers: { "X-Player-Key": player ? player.key : "" } });
  const answer = await response.json();
  if (!response.ok) {
    $("player-status").textContent = answer.error || response.statusText;
    return;
  }
  location.assign(answer.url);
}

function playingItem(g, mine) {
  const li = h("li", { "data-game": g.id, "data-kind": g.kind }, h("span", { text: describe(g) }));
  if (g.kind === "friend") {
    li.append(h("a", { class: "button", href: g.link, "data-action": mine ? "play" : "watch",
                       text: mine ? "Play (your seat)" : "Watch" }));
  } else if (mine) {
    li.append(h("button", { type: "button", "data-action": "play", onclick: () => openOwnSeat(g) }, "Continue"));
  }
  return li;
}

function finishedItem(g) {
  const li = h("li", { "data-game": g.id, "data-kind": g.kind }, h("span", { text: describe(g) }));
  if (g.replay) {
    li.append(h("span", {},
      h("a", { class: "button", href: g.replay, "data-action": "replay" }, "Replay"), " ",
      h("a", { class: "button", href: g.record, download: `bummerl-${g.id}.json`, "data-action": "export" },
        "Export record")));
  }
  return li;
}

function drawStand(page) {
  if (!page.levels) {
    $("stand-missing").hidden = false;
    $("stand-box").dataset.state = "missing";
    return;
  }
  const rows = [{ who: page.name, rating: page.rating, deviation: page.deviation, you: true },
    ...page.levels.map((l) => ({ who: `computer (${l.level})`, rating: l.rating, deviation: l.deviation,
                                 level: l.level }))];
  rows.sort((a, b) => b.rating - a.rating);
  $("stand").tBodies[0].replaceChildren(...rows.map((r) => h("tr", {
    class: r.you ? "win" : "", "data-level": r.level || null, "data-you": r.you ? "true" : null },
    h("td", { text: r.who }), h("td", { text: `${r.rating} ± ${r.deviation}` }))));
  $("stand").hidden = false;
  $("stand-note").hidden = false;
  $("stand-box").dataset.state = "shown";
}

async function start() {
  const response = await fetch(`/api/players/${encodeURIComponent(name)}/games`);
  const page = await response.json();
  if (!response.ok) {
    $("player-status").textContent = page.error || response.statusText;
    $("player").dataset.state = "error";
    return;
  }
  document.title = `bummerl — ${page.name}`;
  $("player-name").textContent = page.name;
  $("player-rating").textContent = String(page.rating);
  $("player-deviation").textContent = String(page.deviation);
  $("player-games").textContent = `${page.games} rated game${page.games === 1 ? "" : "s"}`;
  drawStand(page);
  const player = me();
  const mine = !!player && fold(player.name) === fold(page.name);
  $("playing").replaceChildren(...(page.playing.length ? page.playing.map((g) => playingItem(g, mine))
    : [h("li", { text: "None." })]));
  $("finished").replaceChildren(...(page.finished.length ? page.finished.map(finishedItem)
    : [h("li", { text: "None yet." })]));
  if (page.damaged.length) {
    $("player-status").textContent = `${page.damaged.length} damaged game(s) of this player cannot be read `
      + "and are not listed.";
  }
  $("player").dataset.state = "ready";
}

start();
