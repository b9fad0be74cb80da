// Premove: one move queued while the opponent (or the engine) thinks, played as soon as it is our
// turn; the server decides then whether it is legal.  The moves offered are those our side would
// have in the position if it were to move (asked of the analysis API: the page computes no rule).

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

let queued = null; // {uci, from, to} or null
let offered = { key: null, moves: [] }; // the premoves of the position shown

// The side a premove is for: a person's side we hold while the other side is to move (else null).
export function premoveSide(game, you) {
  if (game.status !== "playing") return null;
  const mine = you.filter((side) => game.players[side] === "human" && side !== game.turn);
  const theirs = game.players[game.turn] === "engine" || !you.includes(game.turn);
  return mine.length && theirs ? mine[0] : null;
}

// The position text with the other side to move (no en passant square: that was the mover's).
function swapped(fen) {
  const fields = fen.split(" ");
  fields[1] = fields[1] === "w" ? "b" : "w";
  if (fields.length > 3) fields[3] = "-";
  return fields.join(" ");
}

// The moves we may queue in the game's position (cached per position; [] if none can be found).
export async function premoveMoves(game) {
  const key = `${game.id} ${game.version}`;
  if (offered.key !== key) {
    let moves = [];
    try {
      moves = (await api.analysisPosition({ variant: game.variant, fen: swapped(game.fen) })).legal;
    } catch (e) { /* a position that cannot be turned around (e.g. a king in check): no premove */ }
    offered = { key, moves };
  }
  return offered.moves;
}

function drawStatus() {
  const box = $("premove");
  box.replaceChildren();
  box.hidden = !queued;
  if (!queued) return;
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.id = "premove-cancel";
  cancel.textContent = "Cancel";
  cancel.onclick = () => { cancelPremove(); markPremove(); };
  box.append(`Premove ${queued.from}-${queued.to} queued: played when it is your turn. `, cancel);
}

export function queuePremove(move) {
  queued = { uci: move.uci, from: move.from, to: move.to };
  drawStatus();
}

export function cancelPremove() {
  queued = null;
  drawStatus();
}

// The queued move to play now (and forget), or null.
export function takePremove() {
  const move = queued;
  cancelPremove();
  return move;
}

// Shade the queued move's squares on the board (after each drawing of it).
export function markPremove() {
  for (const cell of document.querySelectorAll("#board .sq.premove")) cell.classList.remove("premove");
  if (!queued) return;
  for (const name of [queued.from, queued.to]) {
    document.querySelector(`#board .sq[data-square="${name}"]`)?.classList.add("premove");
  }
}
