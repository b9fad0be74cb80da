// The move list: numbered moves in SAN or Game Courier notation, each a button that shows the
// position after it.

import { el } from "./dom.js";

// The ply count before the game's first move, from its start position text (0: White's first move).
export function plyBase(game) {
  const fields = (game.start_fen || "").split(" ");
  const number = Number(fields[5]) || 1;
  return (number - 1) * 2 + (fields[1] === "b" ? 1 : 0);
}

// current: the ply shown (game.history.length when at the end).
export function renderMoves(list, game, notation, current) {
  const base = plyBase(game);
  list.start = Math.floor(base / 2) + 1;
  const rows = [];
  game.history.forEach((h, j) => {
    const row = Math.floor((j + (base % 2)) / 2);
    if (!rows[row]) rows[row] = j === 0 && base % 2 ? [el("span", { class: "mv-gap" }, "…")] : [];
    const side = (base + j) % 2 === 0 ? "White" : "Black";
    rows[row].push(el("button", {
      type: "button", class: j + 1 === current ? "mv current" : "mv", "data-ply": j + 1, title: h.uci,
      "aria-label": `${side}: ${h[notation]}`, "aria-current": j + 1 === current ? "true" : null,
    }, h[notation]));
  });
  list.replaceChildren(...rows.map((cells) => el("li", {}, ...cells)));
}

// Scroll the list (never the page) so that `cell` is wholly visible.
export function keepInView(list, cell) {
  const box = list.getBoundingClientRect();
  const at = cell.getBoundingClientRect();
  if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  else if (at.top < box.top) list.scrollTop -= box.top - at.top;
}
