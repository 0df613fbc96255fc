// The landing page: new game (settings remembered), games against the computer to resume (games with a
// friend are resumed from /friend or the player page), statistics per level and rules.

import { cardSvg } from "./cards.js";
import { LEVELS, h, hasStoredSettings, knownGames, loadSettings, rememberGame, saveSettings, startGame } from "./settings.js";

const $ = (id) => document.getElementById(id);
const settings = loadSettings();

const CHOICES = ["level", "rules", "cards", "speed"];
for (const key of CHOICES) {
  $(key).addEventListener("change", () => {
    settings[key] = $(key).value;
    saveSettings(settings);
    drawHero();
  });
}

/** The form shows the remembered settings, also when the page comes back by the browser's Back (which
 *  restored the old form over what the game's settings dialog had changed since, so that Start used
 *  other choices than those shown). */
function showChoices() {
  if (hasStoredSettings()) Object.assign(settings, loadSettings());  // (none stored: keep this page's own)
  for (const key of CHOICES) $(key).value = settings[key];
  drawHero();
}
showChoices();
window.addEventListener("pageshow", showChoices);

function drawHero() {
  $("hero-cards").replaceChildren(...["AH", "TS", "KD", "QC"].map((c) => {
    const node = h("div", { class: "card" });
    node.appendChild(cardSvg(c, settings.cards));
    return node;
  }));
}

$("new-game").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("start").disabled = true;
  try {
    const answer = await startGame(settings);
    location.href = answer.url;
  } catch (err) {
    $("new-error").textContent = `Could not start a game: ${err.message}`;
    $("start").disabled = false;
  }
});

function describe(game) {
  const rules = game.rules_text;
  // You sit at seat 0 of a game against the computer; the score is the game points each still needs.
  const score = game.score ? ` · you need ${Math.max(game.score[0], 0)}, the computer ${Math.max(game.score[1], 0)}` : "";
  const when = game.updated ? ` · ${new Date(game.updated).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}` : "";
  return `${rules} against ${game.level}${score}${when}`;
}

async function drawResume() {
  const mine = knownGames();
  let games = [];
  try {
    const response = await fetch("/api/games");
    if (response.ok) games = (await response.json()).games;
  } catch { /* the list is only shown on the server's own computer */ }
  const playing = games.filter((g) => g.state === "playing" && LEVELS.includes(g.level));
  for (const [id, info] of Object.entries(mine)) {  // this browser's seats: only those against the computer
    if (LEVELS.includes(info.level) && !games.some((g) => g.id === id)) playing.push({ id, ...info, state: "playing" });
  }
  if (!playing.length) return;
  $("resume").replaceChildren(...playing.slice(0, 8).map((g) => h("li", {},
    h("span", { text: describe(g) }),
    h("button", { type: "button", "data-action": `resume ${g.id}`, onclick: () => resume(g.id) }, "Continue"))));
}

async function resume(id) {
  const known = knownGames()[id];
  if (known && known.token) {
    location.href = `/play/${encodeURIComponent(id)}`;
    return;
  }
  const response = await fetch(`/api/games/${encodeURIComponent(id)}/resume`, { method: "POST" });
  if (!response.ok) return;
  const answer = await response.json();
  rememberGame(id, answer.token);
  location.href = `/play/${encodeURIComponent(id)}`;
}

async function drawStats() {
  const response = await fetch("/api/stats");
  if (!response.ok) return;
  const { stats } = await response.json();
  if (!stats.length) return;
  const order = ["easy", "medium", "hard", "expert", "random"];
  const table = (by, title) => {
    const rows = stats.filter((s) => s.by === by);
    if (by === "level") rows.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    else rows.sort((a, b) => a.name.localeCompare(b.name));
    return h("table", { class: `stats-${by}` },
      h("thead", {}, h("tr", {}, ...[title, "Bummerls won", "deals won", "game points ±", "playing"].map((t) => h("th", { text: t })))),
      h("tbody", {}, ...rows.map((s) => h("tr", {},
        h("td", { text: s.name }), h("td", { text: `${s.bummerls_won} / ${s.bummerls}` }),
        h("td", { text: `${s.deals_won} / ${s.deals}` }),
        h("td", { text: `+${s.game_points_won} −${s.game_points_lost}` }), h("td", { text: String(s.playing) })))));
  };
  $("stats").replaceChildren(table("level", "computer"), h("br"), table("rules", "rules"));
}

function drawPlayerLink() {
  let player = null;
  try { player = JSON.parse(localStorage.getItem("bummerl.player") || "null"); } catch { /* none */ }
  if (!player || typeof player.name !== "string") return;
  document.querySelector(".links").append(h("a", {
    class: "button", id: "player-link", "data-action": "player", href: `/players/${encodeURIComponent(player.name)}`,
    text: `Your games (${player.name})` }));
}

drawPlayerLink();
drawResume();
drawStats();
