// The online part of the page: the links a new game hands out, who plays, the tournament a game
// belongs to, the offers (draw, takeback) and the buttons a seat holder has (resign, offer a draw, ask
// for a takeback, abort).

import { api } from "./api.js";
import { el } from "./dom.js";
import { absolute } from "./seats.js";

const $ = (id) => document.getElementById(id);
const OTHER = { white: "black", black: "white" };
const tournamentNames = new Map(); // tournament id -> its name, asked once a page

// The link from a tournament's game to the tournament's page (named once its name is known).
function drawTournament(game) {
  const box = $("game-tournament");
  const t = game.tournament;
  box.hidden = !t;
  if (!t) return;
  const link = el("a", { href: t.link, id: "game-tournament-link" }, tournamentNames.get(t.id) || "its page");
  box.replaceChildren("A tournament game: ", link);
  if (!tournamentNames.has(t.id)) {
    tournamentNames.set(t.id, null);
    api.tournament(t.id).then((full) => {
      tournamentNames.set(t.id, full.name);
      if ($("game-tournament-link") && $("game-tournament-link").getAttribute("href") === t.link) {
        $("game-tournament-link").textContent = full.name;
      }
    }, () => {});
  }
}

function linkRow(label, link, id) {
  const input = el("input", { id, readonly: true });
  input.value = absolute(link);
  return el("div", { class: "link-row" }, el("label", { for: id }, label), input,
    el("button", { type: "button", class: "copy", "data-copy": id }, "Copy"));
}

// The links of a game just created (or accepted): kept on screen until another game is shown.
export function showLinks(created) {
  const parts = [];
  if (created.seat) parts.push(linkRow("Your seat link (keep it to come back; do not share)", created.seat.link, "seat-link"));
  if (created.invite) parts.push(linkRow("Invite link (send it to your opponent)", created.invite.link, "invite-link"));
  if (created.watch) parts.push(linkRow("Public link (to watch)", created.watch, "watch-link"));
  $("links").replaceChildren(...parts);
  $("links").dataset.game = created.id;
}

export function clearLinks(id) {
  if ($("links").dataset.game !== id) $("links").replaceChildren();
}

function playerText(game, side, you) {
  if (game.players[side] === "engine") return `engine (level ${game.level})`;
  if (game.names[side]) return game.names[side];
  if (you.includes(side)) return "you";
  return game.seats[side] === "free" ? "waiting for a player" : "anonymous";
}

// A player's rating in a rated game: "1500?" while provisional, and its change once rated ("+12", "−12").
function ratingText(game, side) {
  const r = game.ratings && game.ratings[side];
  if (!r) return "";
  const change = r.change === null ? "" : ` ${r.change < 0 ? "−" : "+"}${Math.abs(r.change)}`;
  return ` (${r.rating}${r.provisional ? "?" : ""}${change})`;
}

function ratedText(game) {
  if (!game.rated) return game.mode === "local" ? "" : " · casual";
  return game.ratings && game.ratings.note ? ` · rated game, ${game.ratings.note}` : " · rated";
}

// The players line, the offers and the seat holder's buttons for a game state.
export function drawOnline(game, you) {
  const online = game.mode !== "local";
  const live = game.status === "playing" || game.status === "open";
  const mine = you.length > 0;
  const people = you.filter((side) => game.players[side] === "human");
  const player = (side) => playerText(game, side, you) + ratingText(game, side);
  $("players").textContent = `White: ${player("white")} · Black: ${player("black")}${ratedText(game)}`
    + (!mine ? " · you are watching" : people.length === 1 ? ` · you play ${people[0]}` : "");
  drawTournament(game);
  $("resign").disabled = !online || !mine || game.status !== "playing"; // a local game: take back or start anew
  $("offer-draw").disabled = !online || !mine || game.status !== "playing" || Boolean(game.offers.draw);
  $("abort").disabled = !mine || !live || game.ply >= 2;
  const offers = [];
  for (const what of ["draw", "takeback"]) {
    const by = game.offers[what];
    if (!by) continue;
    const answer = mine && you.includes(OTHER[by]);
    const text = what === "draw" ? `${by} offers a draw` : `${by} asks to take back their last move`;
    const buttons = answer ? ["accept", "decline"].map((a) => [" ", el("button", {
      type: "button", "data-answer": a, "data-what": what }, a === "accept" ? "Accept" : "Decline")]).flat() : [];
    offers.push(el("div", { class: "offer", "data-offer": what }, `${text[0].toUpperCase()}${text.slice(1)}.`,
      ...buttons));
  }
  $("offers").replaceChildren(...offers);
}

// Buttons: act(label, call) runs an API call for the shown game and shows its answer or refusal.
export function wireOnline(act, api, gameOf) {
  const id = () => gameOf().id;
  $("resign").onclick = () => {
    if (window.confirm("Resign this game? It cannot be taken back.")) act("Resign", () => api.resign(id(), null));
  };
  $("offer-draw").onclick = () => act("Draw offer", () => api.offer(id(), "draw", "offer", null));
  $("abort").onclick = () => act("Abort", () => api.abort(id()));
  $("offers").onclick = (e) => {
    const button = e.target.closest("button[data-answer]");
    if (!button) return;
    const { what, answer } = button.dataset;
    act(`${answer} the ${what}`, () => api.offer(id(), what, answer, null));
  };
  $("links").onclick = async (e) => {
    const button = e.target.closest("button.copy");
    if (!button) return;
    const input = $(button.dataset.copy);
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = "Copied";
    } catch (err) {
      document.execCommand("copy");
    }
  };
}
