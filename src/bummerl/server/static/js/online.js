// Play a friend: choose a name (the browser keeps the secret player key), invite, join, watch.
// Every name and text from the server is shown with textContent (never as HTML).

import { cardName, suitName } from "./cards.js";
import { REFUSED_RETRY_MS, h, loadSettings, saveSettings } from "./settings.js";
import { consent, showSpectators } from "./spectators.js";

const KEY = "bummerl.player";
const $ = (id) => document.getElementById(id);
const invite = location.pathname.startsWith("/friend/") ? decodeURIComponent(location.pathname.slice(8)) : "";

function me() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

function status(text, bad = false) {
  $("online-status").textContent = text;
  $("online-status").className = bad ? "loss" : "";
}

async function api(path, body) {
  const player = me();
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", ...(player ? { "X-Player-Key": player.key } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = {};  // not JSON (a proxy's or a crashed server's page): the status says enough
  }
  if (!response.ok) {
    const error = new Error(answer.error || response.statusText || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return answer;
}

function item(text, href) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.textContent = text;
  a.href = href;
  li.append(a);
  return li;
}

// True when the player's box is shown; false when this server does not know the key (e.g. a new
// database): only then is the key forgotten. Any other failure (the network, a server error) throws and
// keeps the key: the server keeps only its hash, so a key thrown away is a name and rating lost.
async function showMe() {
  let page;
  try {
    page = await api("/api/players/me");
  } catch (error) {
    if (error.status !== 401) throw error;
    localStorage.removeItem(KEY);
    return false;
  }
  $("me-name").textContent = page.name;
  $("me-page").href = `/players/${encodeURIComponent(page.name)}`;  // the player page (player.js)
  $("me-rating").textContent = String(page.rating);
  $("me-deviation").textContent = String(page.deviation);
  $("me-games").textContent = `${page.games} rated game${page.games === 1 ? "" : "s"}`;
  $("me-box").hidden = false;
  const list = $("games");
  // A game's state in words, and when it was last played: the entries looked alike ("Ann vs Bob · playing"),
  // and a Bummerl claimed from an absent player read "abandoned" (a play-test).
  // A Bummerl that ended away from the table says how (claimed, on time, resigned).
  const STATES = { playing: "playing", finished: "over", abandoned: "over (won away from the table)", damaged: "damaged" };
  list.replaceChildren(...page.friend_games.map((g) => {
    const state = g.waiting ? "waiting for your friend"
      : g.ended ? `over (${g.ended.text.replace(/\.$/, "")})` : (STATES[g.state] || g.state || "");
    const when = g.updated ? ` · ${new Date(g.updated).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}` : "";
    const li = item(`${g.players[0]} vs ${g.players[1]} · ${state}${g.rated ? " · rated" : ""}${when}`, g.link);
    if (g.waiting) {  // the link to send, again, with a label and Copy; or take the invitation back
      li.append(h("span", { class: "tools" }, ...copyable(g.link), " ",
        h("button", { type: "button", "data-action": "withdraw", onclick: () => withdraw(g.invite) }, "Withdraw")));
    }
    if (g.state === "finished" || g.state === "abandoned") {  // (the server offers it after either end)
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = g.rematch ? "Go to its rematch" : "Rematch (seats swapped)";  // (made already)
      button.dataset.action = "rematch";
      button.addEventListener("click", () => rematch(g.invite));
      li.append(" ", button);
    }
    return li;
  }));
  $("games-box").hidden = page.friend_games.length === 0;
  return true;
}

/** A read-only field holding ``link`` and a Copy button. */
function copyable(link) {
  const field = h("input", { readonly: true, value: link, size: "40", "aria-label": "The invitation link to send your friend" });
  const copy = h("button", { type: "button", "data-action": "copy-invite", onclick: () => copyField(field, copy) }, "Copy");
  return [field, " ", copy];
}

/** Copy what ``field`` holds; the clipboard needs a secure page (https or this computer): elsewhere the
 *  field is selected and the button says Ctrl-C copies it. */
async function copyField(field, button) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = "Copied";
  } catch { button.textContent = "Selected: Ctrl-C copies it"; }
}

/** Take back an invitation nobody has taken yet: its link then takes no seat, and it no longer counts
 *  against the open invitations one may have. */
async function withdraw(code) {
  try {
    await api(`/api/friends/${encodeURIComponent(code)}/withdraw`, {});
    if (awaiting === code) {  // the invitation this page just made
      awaiting = "";
      $("invite-made").hidden = true;
      $("online").dataset.state = "ready";
    }
    status("Invitation withdrawn: its link takes no seat any more.");
    await showMe();
  } catch (err) {
    status(err.message, true);
    showMe().catch(() => {});  // (e.g. the friend took the seat meanwhile: the list says so now)
  }
}

async function rematch(code) {
  try {
    const answer = await api(`/api/friends/${encodeURIComponent(code)}/rematch`, {});
    location.assign(answer.url);
  } catch (err) {
    status(err.message, true);
  }
}

async function showLobby() {
  const { invitations } = await api("/api/lobby");
  const mine = me();
  const others = invitations.filter((i) => !mine || i.host.name !== mine.name);
  $("lobby").replaceChildren(...others.map((i) => item(
    `${i.host.name} (${i.host.rating}) · ${i.rules_text} · ${i.rated ? "rated" : "unrated"}${i.clock ? ` · clock ${i.clock}` : ""}`, i.link)));
  $("lobby-box").hidden = others.length === 0;
}

async function chooseName(event) {
  event.preventDefault();
  try {
    const answer = await api("/api/players", { name: $("name").value });
    localStorage.setItem(KEY, JSON.stringify({ name: answer.name, key: answer.key }));
    $("name-box").hidden = true;
    await start();
  } catch (err) {
    status(err.message, true);
  }
}

async function createInvitation(event) {
  event.preventDefault();
  try {
    const answer = await api("/api/friends", {
      rules: $("rules").value, cards: $("cards").value, rated: $("rated").checked, public: $("public").checked,
      clock: $("clock").value, spectators: $("spectators").value });
    saveSettings({ ...loadSettings(), cards: $("cards").value });  // the host's faces: the game page draws the game's
    $("invite-link").value = answer.link;
    $("play-link").href = answer.url;
    $("invite-made").hidden = false;
    $("online").dataset.state = "invited";
    // The link is made from the address this page was opened by: "localhost" reaches nobody else.
    const local = ["localhost", "127.0.0.1", "0.0.0.0", "[::1]", "[::]"].includes(location.hostname);
    status(local ? "Invitation made — but this link names this computer as " + location.hostname + ", which a "
      + "friend's computer cannot reach: serve with --host 0.0.0.0 and open this page by the network address "
      + "bummerl serve prints." : "Invitation made.", local);
    awaitFriend(answer.invite);
    showMe().catch(() => {});  // listed among your games (a failure here changes nothing made)
  } catch (err) {
    status(err.message, true);
  }
}

const FRIEND_POLL_MS = 3000;
const FRIEND_POLL_FOR_MS = 30 * 60 * 1000;  // then the page stops asking (the player page lists the game)
let awaiting = "";  // the newest invitation this page made (its link is the one shown)

/** A host who stays on this page after inviting hears when the friend takes the seat (a play-test waited here
 *  while the friend played on alone): the page says so and points at the seat. */
function awaitFriend(code, since = Date.now()) {
  awaiting = code;
  setTimeout(async () => {
    if ($("online").dataset.state !== "invited" || awaiting !== code) return;  // the page moved on
    if (Date.now() - since > FRIEND_POLL_FOR_MS) return;
    let seen = null;
    try { seen = await api(`/api/friends/${encodeURIComponent(code)}`); } catch { /* try again */ }
    if (awaiting !== code) return;
    if (!seen || seen.seat_free) { awaitFriend(code, since); return; }
    if (seen.withdrawn) return;  // taken back (on another page)
    status(`${seen.players[1]} has taken the seat: the game waits for you. Go to your seat.`);
    $("withdraw-invite").hidden = true;  // nothing to withdraw any more, here or in the list
    showMe().catch(() => {});
    document.title = `${seen.players[1]} is here — bummerl`;
    $("play-link").focus();
  }, FRIEND_POLL_MS);
}

let watchNames = ["", ""];

// Who is away and the clocks, as of the server's last message (presence.js draws the same for the players).
function watchPresence(p, names) {
  if (names) watchNames = names;
  const mmss = (ms) => `${Math.floor(ms / 60000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}`;
  const parts = [];
  if (p.ended) parts.push(p.ended.text);
  else p.seats.forEach((s, i) => { if (s.away) parts.push(`${watchNames[i]} is away (${mmss(s.away_ms)})`); });
  if (p.clocks) parts.push(`clocks (${p.clocks.control}): ${watchNames[0]} ${mmss(p.clocks.left_ms[0])} · ${watchNames[1]} ${mmss(p.clocks.left_ms[1])}`);
  $("watch-presence").textContent = parts.join(" · ");
}

let watchRetry = 0;
let watchedOnce = false;  // a spectator's socket of this page has had a message

/** The spectator's socket was refused: one line says why, with a way to try at once; the page tries again by
 *  itself every 10 s (what refused it may pass: another tab closes, the store is free again). */
function watchRefused(why) {
  $("online").dataset.state = "refused";
  status(`This game cannot be watched now: ${why}.`, true);
  $("online-status").append(" ", h("button", { type: "button", "data-action": "reload", onclick: () => location.reload() },
    "Try again"));
  setTimeout(watch, REFUSED_RETRY_MS);
}
let watchStyle = null;  // the game's card faces (the invitation's)
let watching = "";  // the status line while connected ("Ann and Bob are playing; you are watching.")

// The spectator's socket; like the game page (game.js) it reconnects by itself with a growing wait (a server
// restart, a lost network), saying so meanwhile; each connection starts with the whole log again (replay).
function watch() {
  $("watch-box").hidden = false;
  $("online").dataset.state = "watching";
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/watch/${encodeURIComponent(invite)}`);
  let opened = false;  // the handshake went through
  let told = false;    // a message of the game came (not only an error)
  let why = "";        // the error the server sent before closing it
  socket.addEventListener("open", () => { opened = true; $("watch-box").dataset.connected = "true"; });
  socket.addEventListener("close", (e) => {
    $("watch-box").dataset.connected = "false";
    if (e.code === 4403) {  // no such invitation (or not a game between two people): nothing to wait for
      status("This game cannot be watched.", true);
      return;
    }
    // Refused as it opened, the server saying why (too many connections; the game cannot be loaded now), or
    // four handshakes in a row refused before this page ever watched (a browser cannot tell why; once it has
    // watched, as after a server restart, it keeps trying quickly): say so, and try again slowly.
    if (!told && (e.code === 1013 || e.code === 4409)) return watchRefused(why || e.reason || `refused (${e.code})`);
    if (!opened && !watchedOnce && watchRetry >= 3) return watchRefused("it may have ended, or the server refuses it");
    status("Connection lost — reconnecting…", true);
    setTimeout(watch, Math.min(4000, 300 * 2 ** Math.min(watchRetry++, 4)));
  });
  socket.addEventListener("message", (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "error") why = msg.reason;
    else told = watchedOnce = true;
    if (msg.type === "events") {
      const items = msg.events.map((ev) => {
        const li = document.createElement("li");
        li.textContent = ev.text;
        return li;
      });
      const log = $("watch-log");
      if (msg.replay) log.replaceChildren(...items);  // a (re)connection: the whole log
      else log.append(...items);
      log.scrollTop = log.scrollHeight;  // the newest line in sight (it stayed at deal 1); the page stays put
    } else if (msg.type === "watch") {
      watchRetry = 0;  // a game frame: this connection works
      const over = msg.phase === "game_over" || Boolean(msg.presence && msg.presence.ended);
      const names = `${msg.players[0].name} and ${msg.players[1].name}`;
      if (watching) status(over ? `The Bummerl of ${names} is over; you watched it.` : watching);
      const phase = over ? "the Bummerl is over" : msg.phase === "deal_over" ? "the deal is over" : "playing";
      $("watch-players").textContent = `${msg.players[0].name} vs ${msg.players[1].name} · deal ${msg.deal_number} · ${phase}`;
      const style = watchStyle || loadSettings().cards;  // the game's faces: card names as its log writes them
      const trick = msg.lead ? ` · on the table: ${cardName(msg.lead, style)}` : "";
      $("watch-table").textContent = `Game points still needed: ${msg.score.join(" – ")} · trump ${suitName(msg.trump, style)}${
        msg.trump_card ? ` (${cardName(msg.trump_card, style)} face up)` : ""} · talon ${msg.talon_size}${trick}`;
      if (msg.presence) watchPresence(msg.presence, msg.players.map((p) => p.name));
    } else if (msg.type === "presence") {
      watchPresence(msg, null);
    } else if (msg.type === "spectators") {
      showSpectators(msg);  // what the players agreed spectators may see (spectators.js)
    } else if (msg.type === "error") {
      status(msg.reason, true);
    }
  });
}

async function join() {
  try {
    const answer = await api(`/api/friends/${encodeURIComponent(invite)}/join`, {});
    if (answer.seat !== null && answer.url) {
      location.replace(answer.url);  // the game page, at this player's seat (same key: same seat)
      return;
    }
    watching = `${answer.players[0]} and ${answer.players[1]} are playing; you are watching.`;
    try { watchStyle = (await api(`/api/friends/${encodeURIComponent(invite)}`)).cards; } catch { /* the browser's */ }
    status(watching);
    watch();
  } catch (err) {  // (e.g. a withdrawn invitation): said, and the page goes on to the lobby and an invitation
    status(err.message, true);
    $("invite-box").hidden = false;
    $("online").dataset.state = "ready";
    showLobby().catch(() => {});
  }
}

/** What an invitation's link offers a visitor without a name: ``{text, seat, withdrawn}``, the text saying
 *  who invites to what ("Ann (1500) invites you to a Bummerl: tompa · rated. "), who plays it once the seat
 *  is taken, or that it was withdrawn; ``seat`` true while the seat is free (or the invitation cannot be read). */
async function invitedBy(code) {
  try {
    const seen = await api(`/api/friends/${encodeURIComponent(code)}`);
    const host = seen.host ? `${seen.host.name} (${seen.host.rating})` : "Somebody";
    if (seen.withdrawn) return { text: `${seen.host ? seen.host.name : "The host"} has withdrawn this invitation. `, seat: false, withdrawn: true };
    if (!seen.seat_free) return { text: `${seen.players[0]} and ${seen.players[1]} play this Bummerl (${seen.rules_text}). `, seat: false };
    return { seat: true, text: `${host} invites you to a Bummerl: ${seen.rules_text} · ${seen.rated ? "rated" : "unrated"}. ` };
  } catch {
    return { seat: true, text: "" };  // joining says what is wrong with the invitation
  }
}

async function start() {
  let known = false;
  try {
    known = Boolean(me()) && await showMe();
  } catch (error) {
    status(`Cannot load your player page just now (${error.message}). Reload to try again; your name is kept.`,
      true);
    return;
  }
  if (!known) {
    $("name-box").hidden = false;
    $("online").dataset.state = "name";
    $("name").focus();
    if (invite) {  // what the link offers: the free seat, watching, or nothing (withdrawn)
      const seen = await invitedBy(invite);
      status(seen.text + (seen.seat ? "Choose a name to take the free seat (or to watch)."
        : seen.withdrawn ? "Choose a name to make your own invitation." : "Choose a name to watch."));
    }
    return;
  }
  if (invite) {
    if (await consent(invite, me())) await join();  // the spectators' choice is shown before the seat is taken
  } else {
    $("invite-box").hidden = false;
    $("online").dataset.state = "ready";
    await showLobby();
    // The lobby is asked again while the page is shown: an invitation taken or withdrawn elsewhere leaves it.
    setInterval(() => {
      if (!document.hidden && ["ready", "invited"].includes($("online").dataset.state)) showLobby().catch(() => {});
    }, LOBBY_POLL_MS);
  }
}

const LOBBY_POLL_MS = 15_000;

$("name-form").addEventListener("submit", chooseName);
$("invite-form").addEventListener("submit", createInvitation);
$("copy-invite").addEventListener("click", () => copyField($("invite-link"), $("copy-invite")));
$("withdraw-invite").addEventListener("click", () => { if (awaiting) withdraw(awaiting); });
start();
