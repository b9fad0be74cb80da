// A player's profile page (/players/NAME): their ratings, games and results; to the player themself, also log
// out everywhere, a new password, their e-mail settings and deleting the account.  Every string from the server goes in as text.

import { accountChanged, api, currentAccount } from "./api.js";
import { el } from "./dom.js";
import { keepToken } from "./seats.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop());

function players(g) {
  return ["white", "black"].map((side) => (g.players[side] === "engine" ? "engine"
    : g.sides.includes(side) ? "this player" : g.names[side] || "?")).join(" vs ");
}

// A rated game's change of the player's rating ("rated +12", "rated −12"), or "rated" before it ends.
function ratedText(g) {
  if (!g.rated) return null;
  const mine = g.ratings && g.sides.length === 1 ? g.ratings[g.sides[0]] : null;
  if (!mine || mine.change === null) return "rated";
  return `rated ${mine.change < 0 ? "−" : "+"}${Math.abs(mine.change)}`;
}

// A game of the list; to its owner, a game going on also has "Play here" (its seats move to this browser).
function item(g, own) {
  const end = g.outcome || (g.status === "over" ? g.result : g.status);
  const text = [g.title, players(g), `${g.moves} move${g.moves === 1 ? "" : "s"}`, end, ratedText(g)]
    .filter(Boolean).join(" · ");
  const li = el("li", { "data-game": g.id }, el("a", { href: g.watch }, text));
  if (own && (g.status === "playing" || g.status === "open")) {
    const here = el("button", { type: "button", class: "play-here" }, "Play here");
    here.addEventListener("click", () => api.seatHere(g.id).then(({ seat }) => {
      keepToken(g.id, seat.token);
      location.href = seat.link;
    }, (e) => said(e.message)));
    li.append(" ", here);
  }
  return li;
}

// A rating of the player: the variant (a link to its leaderboard), "1500?" while provisional, the games.
function rating(r) {
  const games = `${r.games} rated game${r.games === 1 ? "" : "s"}`;
  return el("li", { "data-variant": r.variant }, el("a", { href: r.leaderboard }, r.title),
    ` ${r.rating}${r.provisional ? "?" : ""} · ${games}`);
}

function listed(items, none) {
  return items.length ? items : [el("li", {}, none)];
}

function said(text) {
  $("profile-said").textContent = text;
}

// The account's e-mail settings as the server keeps them, and whether the server sends mail at all.
function showMail(settings) {
  $("profile-mail-address").value = settings.address || "";
  $("profile-mail-moves").checked = settings.moves;
  $("profile-mail-note").textContent = settings.sending ? ""
    : "This server sends no e-mail (no mail server is set up); your choice is kept for when it does.";
}

function wireOwn() {
  const done = (answer, text) => {
    accountChanged(answer);
    said(text);
  };
  $("profile-everywhere").addEventListener("click", () => api.logOutEverywhere()
    .then((a) => done(a, "Logged out everywhere."), (e) => said(e.message)));
  $("profile-password").addEventListener("submit", (e) => {
    e.preventDefault();
    api.changePassword($("profile-old").value, $("profile-new").value)
      .then((a) => done(a, "Password changed; your other sessions ended."), (err) => said(err.message));
  });
  $("profile-mail").addEventListener("submit", (e) => {
    e.preventDefault();
    api.setMail($("profile-mail-address").value, $("profile-mail-moves").checked)
      .then((settings) => { showMail(settings); said("E-mail settings saved."); }, (err) => said(err.message));
  });
  $("profile-delete").addEventListener("submit", (e) => {
    e.preventDefault();
    api.deleteAccount($("profile-delete-password").value)
      .then((a) => done(a, "The account is deleted."), (err) => said(err.message));
  });
}

let showing = 0; // the newest call of show(): an older one whose answers come later changes nothing

async function show() {
  const mine = ++showing;
  let profile;
  try {
    profile = await api.profile(name);
  } catch (e) {
    if (mine !== showing) return;
    $("profile-facts").textContent = e.message;
    $("profile-own").hidden = true;
    $("profile-ratings").replaceChildren();
    $("profile-games").replaceChildren();
    return;
  }
  document.title = `${profile.name} · morphchess`;
  $("profile-name").textContent = profile.name;
  const r = profile.results;
  $("profile-facts").textContent = `Playing since ${profile.created.slice(0, 10)} · `
    + `${r.won} won, ${r.lost} lost, ${r.drawn} drawn`;
  const { account } = await currentAccount();
  if (mine !== showing) return;
  const own = Boolean(account && account.name.toLowerCase() === profile.name.toLowerCase());
  $("profile-own").hidden = !own; // the owner's controls to the owner only
  if (own) api.mailSettings().then(showMail, (e) => said(e.message));
  $("profile-ratings").replaceChildren(...listed(profile.ratings.map(rating), "No rated games yet."));
  $("profile-games").replaceChildren(...listed(profile.games.map((g) => item(g, own)), "No games yet."));
}

wireOwn();
window.addEventListener("morphchess:account", show); // after each log-in or log-out

show();
