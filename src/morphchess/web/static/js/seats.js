// Seat tokens: which games this browser holds a seat of.  A token arrives in a link's fragment
// (/game/ID#seat=TOKEN, never sent to the server) and is kept in local storage; the address bar then
// shows the public link, so that copying it shares a view of the game, not the seat.

const SEATS = "morphchess.seats";
const LAST = "morphchess.game";

function seats() {
  return JSON.parse(localStorage.getItem(SEATS) || "{}");
}

export function tokenOf(id) {
  return seats()[id] || null;
}

export function keepToken(id, token) {
  if (!token) return;
  localStorage.setItem(SEATS, JSON.stringify({ ...seats(), [id]: token }));
}

// Every game this browser holds a seat of: [{id, token}].
export function heldGames() {
  return Object.entries(seats()).map(([id, token]) => ({ id, token }));
}

// Invite links this browser handed out, kept until the invited seat is taken (a reload shows them again).
const INVITES = "morphchess.invites";

function invites() {
  return JSON.parse(localStorage.getItem(INVITES) || "{}");
}

export function keepInvite(id, link) {
  localStorage.setItem(INVITES, JSON.stringify({ ...invites(), [id]: link }));
}

export function inviteOf(id) {
  return invites()[id] || null;
}

export function forgetInvite(id) {
  const all = invites();
  if (!(id in all)) return;
  delete all[id];
  localStorage.setItem(INVITES, JSON.stringify(all));
}

export function lastGame() {
  return (JSON.parse(localStorage.getItem(LAST) || "null") || {}).id || null;
}

export function rememberGame(id) {
  localStorage.setItem(LAST, JSON.stringify({ id }));
}

// The game named by the address (/game/ID#seat=TOKEN): {id, token}, or null on other pages.
export function fromAddress() {
  const match = location.pathname.match(/^\/game\/([^/]+)$/);
  if (!match) return null;
  const id = decodeURIComponent(match[1]);
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  return { id, token };
}

// Show the game's public link in the address bar (the seat stays in local storage).
export function showAddress(id) {
  const path = `/game/${encodeURIComponent(id)}`;
  if (location.pathname !== path || location.hash) history.replaceState(null, "", path);
}

export function absolute(link) {
  return new URL(link, location.origin).href;
}
