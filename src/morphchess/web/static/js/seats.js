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
