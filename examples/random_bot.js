#!/usr/bin/env node
// An outside bot for bummerl in JavaScript (Node.js, no packages): it plays a random legal action.
//
//   bummerl arena random "cmd:node examples/random_bot.js" --deals 20 --seed 1
//
// It speaks the JSON-lines protocol of bummerl.bots.external: one JSON object per line on standard input
// (hello, decide, deal_end, bye), one answer line on standard output for hello and for each decide.
// Anything printed for debugging must go to standard error (console.error).
"use strict";
const readline = require("readline");

// mulberry32: a small seeded generator, so a seeded arena run replays exactly.
function generator(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = generator(Date.now());
const lines = readline.createInterface({ input: process.stdin });

lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    random = generator(message.seed ?? Date.now()); // the arena's seed makes the games repeatable
    process.stdout.write(JSON.stringify({ name: "example random bot (js)" }) + "\n");
  } else if (message.type === "decide") {
    const legal = message.legal; // sorted action strings: "play QH", "close", "marry S", ...
    const action = legal[Math.floor(random() * legal.length)];
    // echoing the message's id (when it has one) makes sure no stray line is taken for this answer
    process.stdout.write(JSON.stringify({ action, id: message.id }) + "\n");
  } else if (message.type === "bye") {
    lines.close();
  } // deal_end and anything newer: no answer
});
