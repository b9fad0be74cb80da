// My games: the games whose seats this browser holds (its kept tokens), your move first, then the
// others, then the finished ones, each a link; and the invite link of a game whose invited seat is
// still free, shown again after a reload.

import { api } from "./api.js";
import { forgetInvite, heldGames, inviteOf, tokenOf } from "./seats.js";

const $ = (id) => document.getElementById(id);
const GROUPS = [["mine", "Your move"], ["others", "Going on"], ["finished", "Finished"]];

function players(g) {
  return ["white", "black"].map((side) => (g.players[side] === "engine" ? "engine"
    : g.you.includes(side) ? "you" : g.free.includes(side) ? "(waiting)" : g.names[side] || "?")).join(" vs ");
}

function describe(g) {
  const parts = [g.title, players(g), `${g.moves} move${g.moves === 1 ? "" : "s"}`];
  if (g.status === "over") parts.push(g.result);
  else if (g.status === "aborted") parts.push("aborted");
  else if (g.status === "open") parts.push("waiting for an opponent");
  else if (g.your_turn) parts.push("your move");
  return parts.join(" · ");
}

function item(g, current) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = g.watch;
  a.textContent = describe(g);
  if (g.id === current) a.setAttribute("aria-current", "page");
  li.dataset.game = g.id;
  li.append(a);
  return li;
}

// Fill the list (current: the id of the game shown).
export async function drawMyGames(current) {
  const held = heldGames();
  const box = $("my-games-list");
  if (!held.length) {
    box.replaceChildren();
    return;
  }
  let games;
  try {
    ({ games } = await api.myGames(held));
  } catch (e) {
    box.textContent = `My games could not be read: ${e.message}`;
    return;
  }
  const groups = { mine: [], others: [], finished: [] };
  for (const g of games) {
    const done = g.status === "over" || g.status === "aborted";
    groups[g.your_turn ? "mine" : done ? "finished" : "others"].push(g);
  }
  const parts = [];
  for (const [key, heading] of GROUPS) {
    if (!groups[key].length) continue;
    const h = document.createElement("h3");
    h.textContent = `${heading} (${groups[key].length})`;
    const list = document.createElement("ul");
    list.dataset.group = key;
    list.append(...groups[key].map((g) => item(g, current)));
    parts.push(h, list);
  }
  if (!parts.length) {
    const p = document.createElement("p");
    p.textContent = "None yet: the games you play here are listed.";
    parts.push(p);
  }
  box.replaceChildren(...parts);
}

// The links to show again for a game whose invited seat nobody has taken yet (null if none).
export function linksAgain(game) {
  const link = inviteOf(game.id);
  if (!link) return null;
  const free = ["white", "black"].some((side) => game.seats[side] === "free");
  if (!free || game.status !== "playing") {
    forgetInvite(game.id);
    return null;
  }
  const token = tokenOf(game.id);
  return {
    id: game.id, invite: { link }, watch: `/game/${game.id}`,
    seat: token ? { link: `/game/${game.id}#seat=${token}` } : null,
  };
}
