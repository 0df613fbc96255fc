// What the spectators of a friend game may see, as its players agreed (server/spectators.py): the inviter's
// choice is shown to whoever opens the invitation before they take the seat (taking it is agreeing), and a
// spectator of a "delayed" game gets a link to replay the deals that are over. Text via textContent only.

import { h } from "./settings.js";

/** Resolves true once the player may join: at once when the seat is not free or is theirs, or when
 * spectators get only the public view (what both players were shown: nothing to agree to); for a game with
 * the delayed view, when they take the seat after reading the invitation (host, rules, what spectators see). */
export async function consent(invite, player) {
  const response = await fetch(`/api/friends/${encodeURIComponent(invite)}`);
  if (!response.ok) return true;  // joining answers the error
  const seen = await response.json();
  if (!seen.seat_free || seen.spectators === "public") return true;
  if (player && seen.host && seen.host.name === player.name) return true;
  return new Promise((resolve) => {
    const host = seen.host ? `${seen.host.name} (${seen.host.rating})` : "Somebody";
    const box = h("section", { id: "consent-box", "aria-labelledby": "consent-title" },
      h("h2", { id: "consent-title", text: `${host} invites you to a Bummerl` }),
      h("p", { text: `${seen.rules_text} · ${seen.rated ? "rated" : "unrated"}` }),
      h("p", { id: "consent-spectators", "data-spectators": seen.spectators },
        h("b", { text: seen.spectators === "delayed" ? "Delayed view for spectators: " : "Spectators: " }),
        seen.spectators_text),
      h("p", { text: "Taking the seat means you agree to this." }),
      h("button", { type: "button", class: "primary", "data-action": "take-seat", onclick: () => {
        box.remove();
        resolve(true);
      } }, "Take the seat"));
    document.getElementById("online").prepend(box);
    document.getElementById("online").dataset.state = "consent";
  });
}

/** Show a spectator the players' choice (the ``spectators`` message of /ws/watch) in the watch box. */
export function showSpectators(msg) {
  const old = document.getElementById("watch-spectators");
  if (old) old.remove();
  const line = h("p", { id: "watch-spectators", "data-spectators": msg.spectators, text: msg.text });
  if (msg.replay) {
    line.append(" ", h("a", { class: "button", href: msg.replay, "data-action": "replay-over", target: "_blank" },
      "Replay the deals that are over"));
  }
  document.getElementById("watch-box").append(line);
}
