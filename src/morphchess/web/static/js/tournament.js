// A tournament's page (/tournaments/ID): its clock, the standings and games, read every POLL_MS; to an
// account, Join and Withdraw, and its game: a new game of the player opens by itself (its seat taken to
// this browser with "Play here"), a game already held here is a link.  Strings from the server go in
// as text.

import { api, currentAccount } from "./api.js";
import { el } from "./dom.js";
import { keepToken, tokenOf } from "./seats.js";
import { describe } from "./tournamentfacts.js";

const POLL_MS = 2000;
const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split("/").pop());
let shown = null; // the last view read
let opening = null; // the game being opened

function said(text) {
  $("tournament-said").textContent = text;
}

function clock(t) {
  const s = t.seconds_left;
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (t.state === "coming") return `Starts in ${text}`;
  return t.state === "running" ? `Ends in ${text}` : "Over: the standings are final";
}

// A Swiss score in points with halves: 2.5 -> "2½".
function points(x) {
  if (typeof x !== "number") return x; // "bye"
  const whole = Math.floor(x);
  return x === whole ? String(x) : `${whole || ""}½`;
}

function line(p, swiss) {
  const sheet = el("span", { class: "sheet" }, p.sheet.map(points).join(" "));
  const name = el("a", { href: p.profile }, p.name);
  return el("tr", { class: p.active ? null : "withdrawn" }, el("td", {}, String(p.rank)),
    el("td", {}, name, p.fire ? " 🔥" : "", p.active ? "" : " (withdrawn)", p.game ? " · playing" : ""),
    el("td", {}, sheet), el("td", {}, String(p.games)), el("td", {}, el("strong", {}, points(p.score))),
    swiss ? el("td", {}, points(p.buchholz)) : null);
}

function game(g) {
  const result = g.result ? ` · ${g.result === "*" ? "aborted" : g.result}` : "";
  return el("li", { "data-game": g.id }, el("a", { href: g.watch }, `${g.white || "?"} vs ${g.black || "?"}${result}`));
}

// The player's game: a new one opens at once; one this browser holds already is offered as a link.
function yours(you) {
  if (!you || !you.game) {
    const last = shown.kind === "swiss" && shown.round >= shown.rounds;
    const waiting = last ? "No game for you in the last round."
      : shown.kind === "swiss" ? "Waiting for the next round…" : "Waiting for an opponent…";
    $("tournament-you").replaceChildren(you && you.active ? waiting : "");
    return;
  }
  if (tokenOf(you.game)) {
    $("tournament-you").replaceChildren(el("a", { href: `/game/${you.game}` }, "Back to your game"));
    return;
  }
  if (opening === you.game) return;
  opening = you.game;
  $("tournament-you").replaceChildren("Your game starts…");
  api.seatHere(you.game).then(({ seat }) => {
    keepToken(you.game, seat.token);
    location.href = seat.link;
  }, (e) => said(e.message));
}

function draw(t, account) {
  document.title = `${t.name} · morphchess`;
  $("tournament-name").textContent = t.name;
  $("tournament-facts").textContent = describe(t) + (t.by ? ` · by ${t.by}` : "");
  $("tournament-clock").textContent = clock(t);
  $("tournament-first-move").textContent = String(t.first_move_seconds);
  const swiss = t.kind === "swiss";
  $("rules-arena").hidden = swiss;
  $("rules-swiss").hidden = !swiss;
  $("tournament-tiebreak").hidden = !swiss;
  const you = t.you;
  $("tournament-join").hidden = !account || t.state === "over" || Boolean(you && you.active);
  $("tournament-withdraw").hidden = !account || t.state === "over" || !(you && you.active);
  $("tournament-standings").tBodies[0].replaceChildren(...(t.standings.length ? t.standings.map((p) => line(p, swiss))
    : [el("tr", {}, el("td", { colspan: "6" }, "Nobody has joined yet."))]));
  $("tournament-games-heading").textContent = t.state === "over" ? "Games still being played (they do not count)"
    : "Games being played";
  $("tournament-games").replaceChildren(...(t.games.length ? t.games.map(game) : [el("li", {}, "None.")]));
  $("tournament-played").replaceChildren(...(t.played.length ? t.played.map(game) : [el("li", {}, "None yet.")]));
  if (t.state !== "over") yours(you);
  else $("tournament-you").replaceChildren();
}

async function show() {
  const { account } = await currentAccount();
  try {
    shown = await api.tournament(id);
  } catch (e) {
    $("tournament-facts").textContent = e.message;
    return;
  }
  draw(shown, account);
}

for (const action of ["join", "withdraw"]) {
  $(`tournament-${action}`).addEventListener("click", async () => {
    said("");
    try {
      shown = await api.tournamentEntry(id, action);
      draw(shown, (await currentAccount()).account);
    } catch (e) {
      said(e.message);
    }
  });
}

async function poll() {
  await show();
  if (!shown || shown.state !== "over") setTimeout(poll, POLL_MS);
}

window.addEventListener("morphchess:account", show);
poll();
