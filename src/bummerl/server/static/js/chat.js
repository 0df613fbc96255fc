// The chat of a game between two people (plain text, shown with textContent only), under the game page.
// Only friend games have one (GET /api/chat/{id} says so; the server also refuses any other game's socket).
// "Chat off" is remembered in this browser: no socket is opened and nothing is shown.

import { REFUSED_RETRY_MS, knownGames } from "./settings.js";

const OFF_KEY = "bummerl.chat_off";
const gameId = decodeURIComponent(location.pathname.split("/").pop());

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.textContent = text;
  return node;
}

const box = el("section", { id: "chat", class: "chat", "aria-label": "Chat", hidden: "" });
const log = el("ol", { id: "chat-log", class: "log" });
const form = el("form", { id: "chat-form" });
const input = el("input", { id: "chat-text", maxlength: "200", placeholder: "Say something (Enter sends)", "aria-label": "Chat message" });
const off = el("label", {}, " chat off");
const offBox = el("input", { type: "checkbox", id: "chat-off" });
off.prepend(offBox);
form.append(input, off);
box.append(el("h2", {}, "Chat"), log, form);
document.querySelector("main").append(box);

let socket = null;
let retry = 0;

function add(name, text) {
  const li = el("li");
  li.append(el("b", {}, `${name}: `), document.createTextNode(text));
  log.append(li);
  log.scrollTop = log.scrollHeight;  // the chat list scrolls to its newest line; the page stays put
}

function connect(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/chat/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`);
  let opened = false;  // its chat_log came
  socket.addEventListener("message", (e) => {
    const msg = JSON.parse(e.data);
    box.hidden = false;
    if (msg.type === "chat_log") {
      opened = true;
      log.replaceChildren();
      for (const m of msg.messages) add(m.name, m.text);
    } else if (msg.type === "chat") {
      add(msg.name, msg.text);
    } else if (msg.type === "error") {
      add("bummerl", msg.reason);
    }
  });
  socket.addEventListener("open", () => { retry = 0; box.dataset.connected = "true"; });
  socket.addEventListener("close", (e) => {
    socket = null;
    box.dataset.connected = "false";
    if (e.code === 4403) { box.remove(); return; }  // not a game between two people
    if (e.code >= 4000) return;  // refused for good (a damaged game): the game's status line says why
    // Too many connections from this address as it opened: it may pass (another tab closes); try again slowly.
    if (e.code === 1013 && !opened) { setTimeout(() => connect(token), REFUSED_RETRY_MS); return; }
    // A lost connection (a server restart, the network): open it again, as the game's socket does; the
    // server's chat_log then replaces what is shown.
    setTimeout(() => connect(token), Math.min(4000, 300 * 2 ** Math.min(retry++, 4)));
  });
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  if (!input.value.trim()) return;
  if (!socket || socket.readyState !== WebSocket.OPEN) {  // kept in the box, not thrown away
    add("bummerl", "not connected: reconnecting… (your message is kept; send it again in a moment)");
    return;
  }
  socket.send(JSON.stringify({ type: "chat", text: input.value }));
  input.value = "";
});
input.addEventListener("keydown", (e) => e.stopPropagation());  // typing is not the game's keys

offBox.checked = localStorage.getItem(OFF_KEY) === "1";
offBox.addEventListener("change", () => {
  localStorage.setItem(OFF_KEY, offBox.checked ? "1" : "0");
  location.reload();
});

async function start(tries = 0) {
  if (tries === 0) {  // only games between two people have a chat
    const answer = await fetch(`/api/chat/${encodeURIComponent(gameId)}`).then((r) => r.json()).catch(() => ({}));
    if (!answer.chat) {
      box.remove();
      return;
    }
  }
  const known = knownGames()[gameId];
  if (!known || !known.token) {
    if (tries < 40) setTimeout(() => start(tries + 1), 250);  // the game page stores the token first
    return;
  }
  if (offBox.checked) {
    box.hidden = false;
    input.disabled = true;
    log.replaceChildren(el("li", {}, "The chat is off."));
    return;
  }
  connect(known.token);
}

start();
