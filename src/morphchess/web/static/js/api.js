// The JSON API of the morphchess server: one function per call.  A refusal is thrown as an ApiError
// with the server's message; a request that got no answer at all as an ApiError of status 0.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }

  get lost() {
    return this.status === 0;
  }
}

let seatToken = null; // the seat token of the game shown (sent as Authorization: Bearer)

export function useToken(token) {
  seatToken = token || null;
}

// The headers a streamed request sends (the seat token and the CSRF token, as every call does).
export function authHeaders() {
  return { ...(seatToken ? { Authorization: `Bearer ${seatToken}` } : {}), ...(csrf ? { "X-CSRF-Token": csrf } : {}) };
}

// The account logged in ({account, csrf}), asked once a page; a change of it (log-in, log-out) is told here.
let csrf = null; // sent with every change while logged in (the server refuses a change with the cookie alone)
let accountAsked = null;

export function currentAccount() {
  accountAsked ??= call("GET", "/api/account").catch(() => ({ account: null }));
  return accountAsked.then((answer) => {
    csrf = answer.csrf || null;
    return answer;
  });
}

// Take a log-in's or log-out's answer as the account now, and tell the page (event morphchess:account).
export function accountChanged(answer) {
  accountAsked = Promise.resolve(answer);
  csrf = answer.csrf || null;
  window.dispatchEvent(new CustomEvent("morphchess:account", { detail: answer.account }));
}

// The headers of a change made outside this module (the editor, the lab): the CSRF token when logged in.
export async function writeHeaders() {
  await currentAccount();
  return csrf ? { "X-CSRF-Token": csrf } : {};
}

function messageOf(status, text) {
  try {
    const error = JSON.parse(text).error;
    if (error && error.message) return error.message;
  } catch (e) { /* not JSON: the text itself */ }
  return text.trim().slice(0, 300) || `the server answered ${status}`;
}

// A refusal for want of the CSRF token: the account changed in another tab since this page asked.
function csrfRefused(status, text) {
  try {
    return status === 403 && JSON.parse(text).error.code === "csrf";
  } catch (e) {
    return false;
  }
}

async function call(method, path, body, again = true) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (seatToken) options.headers.Authorization = `Bearer ${seatToken}`;
  if (method !== "GET") Object.assign(options.headers, await writeHeaders());
  let response;
  let text;
  try {
    response = await fetch(path, options);
    text = await response.text();
  } catch (e) {
    throw new ApiError(0, "connection lost: the server did not answer");
  }
  if (again && csrfRefused(response.status, text)) {
    accountAsked = null; // ask again which account this browser is logged in as, and send the change once more
    accountChanged(await currentAccount());
    return call(method, path, body, false);
  }
  if (!response.ok) throw new ApiError(response.status, messageOf(response.status, text));
  const type = response.headers.get("Content-Type") || "";
  return type.includes("json") ? JSON.parse(text) : text;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  levels: () => call("GET", "/api/levels"),
  variants: () => call("GET", "/api/variants"),
  variant: (key) => call("GET", `/api/variants/${encodeURIComponent(key)}`),
  define: (definition) => call("POST", "/api/variants", { definition }),
  newGame: (spec) => call("POST", "/api/games", spec),
  game: (id) => call("GET", game(id)),
  setPlayers: (id, players) => call("PATCH", game(id), players),
  position: (id, ply) => call("GET", `${game(id)}/positions/${ply}`),
  move: (id, move, ply) => call("POST", `${game(id)}/moves`, { move, ply }),
  undo: (id, plies) => call("POST", `${game(id)}/undo`, { plies }),
  stop: (id) => call("POST", `${game(id)}/stop`),
  resign: (id, side) => call("POST", `${game(id)}/resign`, { side }),
  offer: (id, what, action, side) => call("POST", `${game(id)}/${what}`, { action, side }),
  abort: (id) => call("POST", `${game(id)}/abort`),
  accept: (id, name) => call("POST", `${game(id)}/accept`, { name }),
  join: (id, name) => call("POST", `${game(id)}/join`, { name }),
  record: (id, format) => call("GET", `${game(id)}/record?format=${format}`),
  importRecord: (spec) => call("POST", "/api/import", spec),
  eventsUrl: (id, since) => `${game(id)}/events?since=${since}&changes=true`,
  analysisPosition: (spec) => call("POST", "/api/analysis/position", spec),
  analysisRecord: (spec) => call("POST", "/api/analysis/record", spec),
  analysisPgn: (spec) => call("POST", "/api/analysis/pgn", spec),
  rematch: (id, action) => call("POST", `${game(id)}/rematch`, { action }),
  startReview: (id) => call("POST", `${game(id)}/review`),
  review: (id) => call("GET", `${game(id)}/review`),
  myGames: (games) => call("POST", "/api/mygames", { games }),
  talk: (id, text, name) => call("POST", `${game(id)}/talk`, { text, name }),
  talkSpectators: (id, open) => call("POST", `${game(id)}/talk/spectators`, { open }),
  signUp: (name, password, seats) => call("POST", "/api/account/signup", { name, password, seats }),
  logIn: (name, password, seats) => call("POST", "/api/account/login", { name, password, seats }),
  logOut: () => call("POST", "/api/account/logout"),
  logOutEverywhere: () => call("POST", "/api/account/logout-everywhere"),
  changePassword: (old, fresh) => call("POST", "/api/account/password", { old, new: fresh }),
  deleteAccount: (password) => call("POST", "/api/account/delete", { password }),
  mailSettings: () => call("GET", "/api/account/mail"),
  setMail: (address, moves) => call("POST", "/api/account/mail", { address, moves }),
  yourMove: () => call("GET", "/api/account/your-move"),
  seatHere: (id) => call("POST", `/api/account/games/${encodeURIComponent(id)}/seat`),
  profile: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  tournaments: () => call("GET", "/api/tournaments"),
  tournament: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  newTournament: (spec) => call("POST", "/api/tournaments", spec),
  tournamentEntry: (id, action) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`),
  talkEventsUrl: (id, player, since) => `${game(id)}/talk/events?since=${since}${player ? "&player=true" : ""}`,
};
