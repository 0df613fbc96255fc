// Settings and the games this browser holds a seat in, remembered in localStorage.

const SETTINGS_KEY = "bummerl.settings";
const GAMES_KEY = "bummerl.games";

export const LEVELS = ["easy", "medium", "hard", "expert"];
export const PRESETS = ["standard", "soft", "sharp", "tompa", "vu", "sixty-six"];
export const SPEEDS = { instant: 0, fast: 350, normal: 800, slow: 1500 };
const DEFAULTS = { level: "medium", rules: "standard", cards: "french", speed: "normal", keys: "on" };

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value && typeof value === "object" ? value : fallback;
  } catch {
    return fallback;
  }
}

/** Whether settings were ever stored here (false also where the browser refuses local storage). */
export function hasStoredSettings() {
  return read(SETTINGS_KEY, null) !== null;
}

export function loadSettings() {
  const s = { ...DEFAULTS, ...read(SETTINGS_KEY, {}) };
  if (!LEVELS.includes(s.level)) s.level = DEFAULTS.level;
  if (!PRESETS.includes(s.rules)) s.rules = DEFAULTS.rules;
  if (!["french", "german"].includes(s.cards)) s.cards = DEFAULTS.cards;
  if (!(s.speed in SPEEDS)) s.speed = DEFAULTS.speed;
  if (!["on", "off"].includes(s.keys)) s.keys = DEFAULTS.keys;  // single-key shortcuts in the game
  return s;
}

export function saveSettings(settings) {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

/** {id: {token, level, rules, started}} of the games this browser plays. */
export function knownGames() {
  return read(GAMES_KEY, {});
}

export function rememberGame(id, token, info = {}) {
  const games = knownGames();
  games[id] = { ...(games[id] || {}), ...info, token };
  localStorage.setItem(GAMES_KEY, JSON.stringify(games));
}

export function forgetGame(id) {
  const games = knownGames();
  delete games[id];
  localStorage.setItem(GAMES_KEY, JSON.stringify(games));
}

/** Ask for the rematch of a finished friend game (its invitation code) with this browser's player key;
 * resolves to the server's {id, seat, token, url} of the new game (seats swapped), remembered here. */
export async function askRematch(invite) {
  const player = read("bummerl.player", null);
  if (!player || !player.key) throw new Error("this browser has no player name: ask for it in the browser you played in");
  const response = await fetch(`/api/friends/${encodeURIComponent(invite)}/rematch`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Player-Key": player.key }, body: "{}",
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  rememberGame(answer.id, answer.token, { started: Date.now() });
  return answer;
}

/** Start a new game with these settings; resolves to the server's {id, seat, token, url}. A browser with a
 * player name (chosen on /friend) sends its key, so the game is listed on that player's page. */
export async function startGame(settings) {
  const player = read("bummerl.player", null);
  const response = await fetch("/api/games", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(player && player.key ? { "X-Player-Key": player.key } : {}) },
    body: JSON.stringify({ rules: settings.rules, level: settings.level, cards: settings.cards }),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  rememberGame(answer.id, answer.token, { level: settings.level, rules: settings.rules, started: Date.now() });
  return answer;
}

/** How long a page waits before it opens a socket again that the server refused as it opened, saying why
 *  (the game open in another window, the store busy, too many connections): it may pass, but not at once. */
export const REFUSED_RETRY_MS = 10_000;

/** Text safe for innerHTML is never built: use this to make elements. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}
