// The game-over summary: the result and how the game ended, links to the record (PGN, Game Courier
// log) and to the analysis board, and the rematch (colours swapped): offer it, or answer the
// opponent's offer; when it starts, both players' pages open it.  A tournament's game has no
// rematch (its tournament pairs the next game): a link back to the tournament instead.

import { recordUrl } from "./records.js";

const $ = (id) => document.getElementById(id);

function button(text, onClick, id) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (id) b.id = id;
  b.onclick = onClick;
  return b;
}

// What the rematch part shows for the seats `you` hold; answer(action) sends offer/accept/decline.
function rematchPart(game, you, answer) {
  const box = document.createElement("div");
  box.id = "rematch";
  if (game.tournament) {
    const a = document.createElement("a");
    a.href = game.tournament.link;
    a.id = "summary-tournament";
    a.textContent = "Back to the tournament";
    box.append(a);
    return box;
  }
  if (game.rematch) {
    const a = document.createElement("a");
    a.href = `/game/${encodeURIComponent(game.rematch)}`;
    a.textContent = "The rematch";
    box.append(a, you.length ? " has started." : " is being played: watch it.");
    return box;
  }
  if (!you.length || game.status !== "over") return box;
  const by = game.offers.rematch;
  if (by && !you.includes(by)) {
    box.append(`${by === "white" ? "White" : "Black"} offers a rematch (colours swapped). `,
      button("Accept", () => answer("accept"), "rematch-accept"), " ",
      button("Decline", () => answer("decline"), "rematch-decline"));
  } else if (by) {
    box.append("Rematch offered: waiting for the opponent.");
  } else {
    box.append(button("Rematch (colours swapped)", () => answer("offer"), "rematch-offer"));
  }
  return box;
}

// Show the summary of a finished game (hidden while it goes on).
export function drawSummary(game, you, { answer, analyse }) {
  const box = $("summary");
  const over = Boolean(game.outcome) || game.status === "aborted";
  box.hidden = !over;
  if (!over) return;
  const title = document.createElement("h2");
  title.textContent = "Game over";
  const result = document.createElement("p");
  result.id = "summary-result";
  result.textContent = game.outcome ? game.outcome.text : "Game aborted";
  const links = document.createElement("p");
  const record = (format, text) => {
    const a = document.createElement("a");
    a.href = recordUrl(game.id, format);
    a.textContent = text;
    a.setAttribute("download", "");
    return a;
  };
  if (analyse) links.append(button("Analyse", analyse, "summary-analyse"), " ");
  links.append(record("pgn", "Download PGN"), " · ", record("gc", "Download Game Courier log"));
  box.replaceChildren(title, result, links, rematchPart(game, you, answer));
}

// Has the rematch of the game just started (seen in this page's last two states of it)?
export function rematchStarted(old, game) {
  return Boolean(old && old.id === game.id && !old.rematch && game.rematch);
}
