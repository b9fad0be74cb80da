// The page: which game is shown and who we are in it, live updates, the game controls, typed moves,
// records and pasted definitions.  Every rule and every engine move comes from the server.

import { analysisActive, analysisFromAddress, analysisMove, closeAnalysis, openAnalysis, wireAnalysis } from "./analysis.js";
import { api, ApiError, useToken } from "./api.js";
import { BoardView, pieceImage, pieceName } from "./board.js";
import { choose } from "./chooser.js";
import { Clocks } from "./clock.js";
import { engineLine } from "./engineline.js";
import { follow } from "./events.js";
import { renderLegend } from "./legend.js";
import { keepInView, plyBase, renderMoves } from "./movelist.js";
import { wireLooks } from "./looks.js";
import { drawMyGames, linksAgain } from "./mygames.js";
import { clearLinks, drawOnline, showLinks, wireOnline } from "./online.js";
import { wirePanels } from "./panels.js";
import { cancelPremove, markPremove, premoveMoves, premoveSide, queuePremove, takePremove } from "./premove.js";
import { drawDownloads, wireRecords } from "./records.js";
import { fromAddress, keepInvite, keepToken, lastGame, rememberGame, showAddress, tokenOf } from "./seats.js";
import { beep, setSound, soundOn } from "./sound.js";
import { drawReview, markedPly, markMoves, wireReview } from "./review.js";
import { drawSummary, rematchStarted } from "./summary.js";
import { drawTalk, followTalk, wireTalk } from "./talk.js";
import { timeControl, wireTimeControl } from "./timecontrol.js";
import { drawTurn, wireTurn } from "./turn.js";
import { drawZoneChoices } from "./zones.js";

const $ = (id) => document.getElementById(id);
const NAME = "morphchess.name";
const OTHER = { white: "black", black: "white" };

const app = {
  variants: new Map(), // key -> variant view
  variant: null,
  game: null,
  you: [], // the seats this page holds in the game shown
  viewing: null, // ply shown while looking at an earlier position, else null
  pending: false, // a move of ours is on its way to the server
  unfollow: () => {},
  players: Promise.resolve(), // the queue of changes of players
};

const board = new BoardView($("board"), {
  onMove: (move) => boardMove(move),
  choose: (title, moves, anchor) => choose(title, moves.map((m) => ({
    id: m.uci, value: m, image: pieceImage(app.variant, m.new),
    label: pieceName(app.variant, m.new).replace(/^\w+ /, "") + legsText(m),
  })), anchor),
  onSelect: () => { $("transform").disabled = !board.canTransform(); },
});
const clocks = new Clocks($("clocks"));

// Turn the board around; the evaluation bar beside it keeps White's share on White's side.
function flipBoard() {
  board.flip();
  $("board-row").classList.toggle("flipped", board.flipped);
}

// A move made on the board: on the analysis board, queued as a premove, or played.
function boardMove(move) {
  if (analysisActive()) analysisMove(move);
  else if (premoveSide(app.game, app.you)) {
    queuePremove(move);
    markPremove();
  } else sendMove(move.uci, move);
}

// How the chooser tells moves to the same square apart: where a multi-leg move captures on the way,
// where an unload move puts the piece it takes (a swap: back on the mover's square).
function legsText(move) {
  if (move.unload) return move.unload === move.from ? ", swapping places" : `, the piece taken to ${move.unload}`;
  return move.legs && move.legs.length ? `, taking on ${move.legs.join(", ")}` : "";
}

// -- messages ----------------------------------------------------------------------------------------
function notice(text) {
  $("notice").textContent = text;
}

function refusal(what, error) {
  if (error instanceof ApiError && error.lost) {
    return `Connection lost: ${what} got no answer from the server; the board shows the last position it confirmed.`;
  }
  return `${what} refused: ${error.message}`;
}

// -- variants ----------------------------------------------------------------------------------------
async function variantView(key) {
  if (!app.variants.has(key)) app.variants.set(key, await api.variant(key));
  return app.variants.get(key);
}

function titleOf(variant) {
  return variant.builtin === false ? `${variant.title} (pasted)` : variant.title || variant.name;
}

function addVariantOption(key, title) {
  const select = $("variant");
  const option = [...select.options].find((o) => o.value === key);
  if (option) option.textContent = title;
  else select.add(new Option(title, key));
}

function fillSetups(variant) {
  $("setup-label").hidden = variant.setups.length < 2;
  $("setup").replaceChildren(...variant.setups.map((s) => new Option(s, s)));
}

function showVariant(variant) {
  app.variant = variant;
  board.setVariant(variant);
  addVariantOption(variant.key, titleOf(variant));
  $("variant").value = variant.key;
  $("variant-name").textContent = variant.title || variant.name;
  $("variant-about").textContent = [variant.author ? `by ${variant.author}` : "", variant.description || ""]
    .filter(Boolean).join(" · ");
  fillSetups(variant);
  renderLegend($("legend"), $("rules"), variant);
  drawZoneChoices(variant, board);
}

// -- the game shown ----------------------------------------------------------------------------------
function myTurn(game) {
  return game.status === "playing" && !game.thinking && app.you.includes(game.turn)
    && game.players[game.turn] === "human";
}

// Tell screen readers the move just played (the status line says whose turn it is).
function announce(old, game) {
  if (!old || old.id !== game.id || game.ply <= old.ply) return;
  const last = game.history[game.history.length - 1];
  const side = (plyBase(game) + game.ply) % 2 === 1 ? "White" : "Black";
  $("announce").textContent = `${side} played ${last.san}`;
}

function soundFor(old, game) {
  if (!old || old.id !== game.id) return;
  if (game.status !== old.status && game.outcome) beep("end");
  else if (game.ply > old.ply) {
    const last = game.history[game.history.length - 1];
    beep(game.check.length ? "check" : last && /x/.test(last.san) ? "capture" : "move");
  }
}

// Show a game state; `you`: the seats it says we hold (states from the event stream say none).
// A state older than the one shown, or of another game, is dropped unless `switching`.
async function setGame(game, { switching = false, you = null } = {}) {
  const old = app.game;
  if (!switching && old && (old.id !== game.id || game.version < old.version)) {
    draw(); // what is shown may still need redrawing (e.g. the end of a pending move)
    return;
  }
  if (!app.variant || app.variant.key !== game.variant) showVariant(await variantView(game.variant));
  if (you) app.you = you;
  app.game = game;
  if (!old || old.id !== game.id) { // the controls show the new game's choices; later they are the user's
    closeAnalysis();
    cancelPremove();
    app.viewing = null;
    $("setup").value = game.setup;
    $("white").value = game.players.white;
    $("black").value = game.players.black;
    $("level").value = String(game.level);
    showOnlineChoices(game);
    clearLinks(game.id);
    if (board.flipped !== (app.you.length === 1 ? app.you[0] === "black"
      : game.players.white === "engine" && game.players.black === "human")) flipBoard();
  }
  drawTurn(old, game, app.you);
  followTalk(game.id, app.you.length > 0);
  drawTalk(app.you);
  if (!old || old.id !== game.id || old.ply !== game.ply || old.status !== game.status) {
    drawMyGames(game.id);
  }
  soundFor(old, game);
  announce(old, game);
  rememberGame(game.id);
  showAddress(game.id);
  draw();
  const premove = myTurn(game) && !app.pending && takePremove();
  if (premove) sendMove(premove.uci);
  if (rematchStarted(old, game) && app.you.length) { // the same token holds the rematch's seats
    keepToken(game.rematch, tokenOf(game.id));
    await openById(game.rematch, tokenOf(game.id));
  }
}

// The online choices say how the game shown is played (after a reload too): our side, its time control.
function showOnlineChoices(game) {
  if (game.mode === "local") return;
  if (app.you.length === 1) $("online-side").value = app.you[0];
  $("rated").checked = game.rated;
  const text = game.time_control ? game.time_control.text : "";
  const select = $("time-control");
  if (![...select.options].some((o) => o.value === text)) select.add(new Option(text, text));
  select.value = text;
}

function statusText(game) {
  const side = game.turn === "white" ? "White" : "Black";
  if (game.status === "aborted") return "Game aborted";
  if (game.outcome) return `Game over: ${game.outcome.text}`;
  if (game.status === "open") return "Waiting for an opponent to accept the game in the lobby";
  if (game.thinking) return `${side} to move: the engine is thinking`;
  const check = game.check.length ? ": check!" : "";
  if (app.you.includes(game.turn) && game.players[game.turn] === "human") {
    return `${side} to move${check}${app.you.length === 1 ? " (you)" : ""}`;
  }
  const opponent = app.you.length > 0 && game.players[game.turn] === "human"; // a spectator has no opponent
  return `${side} to move${check}${opponent ? " (your opponent)" : ""}`;
}

function draw() {
  const game = app.game;
  document.body.dataset.version = game.version; // the state shown (for tests and curious readers)
  if (app.viewing === null && !analysisActive()) {
    if (!app.pending && premoveSide(game, app.you)) drawPremoves(game);
    else board.render(game, game.legal, myTurn(game) && !app.pending);
    markPremove();
    $("viewing").hidden = true;
    $("board").classList.remove("viewing");
  }
  drawMoves();
  drawEngine(game.engine);
  drawOnline(game, app.you);
  drawDownloads(game);
  drawSummary(game, app.you, { answer: (action) => act("Rematch", () => api.rematch(game.id, action)), analyse });
  drawReview(game);
  clocks.set(game.clock);
  const local = game.mode === "local";
  const owner = local && app.you.length > 0;
  for (const id of ["white", "black", "level"]) $(id).disabled = Boolean(app.game) && !owner;
  $("stop").disabled = !game.thinking || !app.you.length;
  $("undo").disabled = !app.you.length || game.status !== "playing" || !game.history.length;
  $("undo").textContent = ownAllSeats(game) ? "Take back" : "Ask to take back";
  $("move-input").disabled = !app.you.length || game.status !== "playing"; // it keeps the focus between moves
  $("transform").disabled = !board.canTransform();
  if (!document.body.dataset.loading) $("status").textContent = statusText(game); // the sign stays while loading
  $("status").classList.toggle("over", Boolean(game.outcome) || game.status === "aborted");
}

// While the other side thinks, our pieces may be picked up for a premove.
function drawPremoves(game) {
  board.render(game, [], false);
  premoveMoves(game).then((moves) => {
    if (app.game !== game || app.viewing !== null || analysisActive() || app.pending) return;
    board.render(game, moves, true);
    markPremove();
  });
}

function drawEngine(info) {
  const game = app.game;
  let side = game.turn;
  let ply = game.ply;
  if (!game.thinking && info && info.move) { // the engine's move is the last one it played
    const index = game.history.map((h) => h.uci).lastIndexOf(info.move);
    if (index < 0) info = null;
    else {
      side = (game.ply - index) % 2 === 0 ? game.turn : OTHER[game.turn];
      ply = index;
    }
  }
  const line = engineLine(info, side, plyBase(game) + ply, game.thinking);
  $("engine-line").textContent = line;
  $("engine-line").title = line; // the whole line where the page cuts it
}

function drawMoves() {
  const notation = document.querySelector('input[name="notation"]:checked').value;
  const current = app.viewing === null ? app.game.history.length : app.viewing;
  renderMoves($("moves"), app.game, notation, current);
  markMoves($("moves"));
  const cell = $("moves").querySelector(".current");
  if (cell && app.viewing === null) keepInView($("moves"), cell);
}

// A marked move of the review: the position before it, with the engine's better move drawn.
async function showBetter(ply) {
  const p = markedPly(ply);
  await viewPly(ply - 1);
  const [from, to] = p.best_uci.match(/[a-z]+\d+/g);
  board.marks.clear();
  board.marks.toggle(from, to || from);
  $("review-better").textContent = `Before ${p.san}${p.mark} the engine prefers ${p.best} (the arrow).`;
}

async function viewPly(ply) {
  const game = app.game;
  if (ply >= game.history.length) {
    app.viewing = null;
    draw();
    return;
  }
  const view = await api.position(game.id, ply);
  app.viewing = ply;
  board.render(view, [], false);
  $("viewing").hidden = false;
  $("board").classList.add("viewing");
  drawMoves();
}

// Open a game: its state with our seats, then its live updates.
async function openGame(state, token, created = null) {
  app.unfollow();
  keepToken(state.id, token);
  useToken(token);
  await setGame(state, { switching: true, you: created ? created.seat.sides : state.you || [] });
  if (created && state.mode !== "local") showLinks(created);
  if (created && created.invite) keepInvite(state.id, created.invite.link);
  const again = !created && linksAgain(state);
  if (again) showLinks(again);
  notice("");
  let lost = false;
  app.unfollow = follow(state.id, state.ply, {
    onState: (s) => setGame(s).catch((e) => notice(String(e))),
    onEngine: (info) => { if (app.game && app.game.thinking) drawEngine(info); },
    onLink: (ok, text) => {
      $("connection").textContent = text;
      if (ok && lost) refresh(); // catch up with what happened while the connection was lost
      lost = !ok;
    },
  });
}

async function refresh() {
  if (!app.game) return;
  try {
    await setGame(await api.game(app.game.id), { you: null });
  } catch (e) {
    if (e.lost) $("connection").textContent = "Connection lost: the server does not answer; retrying…";
  }
}

async function openById(id, token) {
  useToken(token);
  let state = await api.game(id);
  if (token && state.you.some((side) => state.seats[side] === "free")) { // an invite: take the seat
    state = await api.join(id, await joinName(state));
    if (state.seat) token = state.seat.token; // the link's token works once: the seat's own replaces it
  }
  await openGame(state, token);
}

// The name to take an invited seat under: the one this browser keeps, else asked for (empty: none).
function joinName(state) {
  if ($("name").value) return Promise.resolve($("name").value);
  const side = state.you[0] === "white" ? "White" : "Black";
  $("join-text").textContent = `You are invited to play ${side} in ${state.title}. Your name is shown to your opponent.`;
  $("join").hidden = false;
  $("join-name").focus();
  return new Promise((resolve) => {
    $("join").onsubmit = (e) => {
      e.preventDefault();
      $("join").hidden = true;
      const name = $("join-name").value.trim();
      if (name) keepName(name);
      resolve(name || null);
    };
  });
}

function keepName(name) {
  $("name").value = name;
  localStorage.setItem(NAME, name);
}

// A name changed while playing an online game names our seat (the players line, the talk, the PGN).
function renameSeat() {
  keepName($("name").value.trim());
  const game = app.game;
  if (!game || game.mode === "local" || app.you.length !== 1 || !["playing", "open"].includes(game.status)) return;
  act("Your name", () => api.join(game.id, $("name").value || null));
}

// -- playing ---------------------------------------------------------------------------------------------
// Send a move (coordinate text or SAN, or a legal move picked on the board, shown at once); true if
// the server took it.
async function sendMove(text, move = null) {
  const game = app.game;
  if (move) board.showPending(move);
  app.pending = true;
  try {
    const state = await api.move(game.id, text, game.ply);
    app.pending = false;
    notice("");
    await setGame(state, { you: state.you });
    return true;
  } catch (e) {
    app.pending = false;
    notice(refusal(`Move ${text}`, e));
    draw(); // the position as the server last told it
    if (!e.lost) refresh();
    return false;
  }
}

// A typed move: sent when it is our move, else kept in the box with a word why.
function typedMove(input) {
  const text = input.value.trim();
  if (!text || !app.game) return;
  if (!myTurn(app.game) || app.pending) {
    notice(`Not sent: ${app.pending ? "your last move is on its way" : statusText(app.game)}.`);
    return;
  }
  input.value = "";
  sendMove(text).then((ok) => {
    if (!ok && !input.value) input.value = text; // to correct it
  });
}

// Show that something is loading (a variant's pieces and tables take a second or two on a big board).
async function loading(what, work) {
  document.body.dataset.loading = what;
  $("board").setAttribute("aria-busy", "true");
  $("status").textContent = `Loading ${what}…`;
  try {
    return await work();
  } finally {
    delete document.body.dataset.loading;
    $("board").removeAttribute("aria-busy");
    if (app.game) $("status").textContent = statusText(app.game);
  }
}

async function act(what, call) {
  try {
    const state = await call();
    notice("");
    await setGame(state, { you: state.you });
  } catch (e) {
    notice(refusal(what, e));
  }
}

// Do we hold every seat a person plays (then we take back at once, else we ask the opponent)?
function ownAllSeats(game) {
  return ["white", "black"].every((side) => game.players[side] !== "human" || app.you.includes(side));
}

function takeBack() {
  const game = app.game;
  if (!ownAllSeats(game)) {
    act("Takeback request", () => api.offer(game.id, "takeback", "offer", null));
    return;
  }
  const n = game.history.length;
  const sideAfter = (k) => (k % 2 === 0 ? game.turn : OTHER[game.turn]);
  let plies = 1; // back to the last position where a person was to move
  const bothEngines = game.players.white === "engine" && game.players.black === "engine";
  while (!bothEngines && plies < n && game.players[sideAfter(plies)] === "engine") plies++;
  act("Take back", () => api.undo(game.id, plies));
}

// Changes of players are sent one after the other, each with the choices as they are then.
function changePlayers() {
  app.players = app.players.then(() => act("Change of players", () => api.setPlayers(app.game.id, {
    white: $("white").value, black: $("black").value, level: Number($("level").value),
  })));
}

// -- new games -----------------------------------------------------------------------------------------
function variantSpec() {
  const key = $("variant").value;
  const view = app.variants.get(key);
  return view && !view.builtin && view.definition ? { definition: view.definition } : { variant: key };
}

async function newGame(spec) {
  const created = await api.newGame({
    mode: "local", white: $("white").value, black: $("black").value, level: Number($("level").value),
    name: $("name").value || null, ...spec,
  });
  await openGame(created, created.seat.token, created);
}

function startNew(extra = {}) {
  return newGame({ ...variantSpec(), setup: $("setup").value || null, ...extra }).catch((e) => notice(refusal("New game", e)));
}

function startOnline(mode) {
  return startNew({
    mode, side: $("online-side").value, white: null, black: null,
    time_control: timeControl(), rated: $("rated").checked,
  });
}

// -- the analysis board ------------------------------------------------------------------------------------
// The game shown, from its start to the position viewed, on the analysis board.
function analyse() {
  const game = app.game;
  const ply = app.viewing === null ? game.history.length : app.viewing;
  app.viewing = null;
  $("viewing").hidden = true;
  $("board").classList.remove("viewing");
  openAnalysis({ variant: game.variant, setup: game.setup, fen: game.start_fen, game: game.id }, game.history, ply)
    .catch((e) => notice(refusal("Analysis", e)));
}

// The record or position text in the Records box on the analysis board (a position: one line with a "/").
async function analyseText() {
  const text = $("record-text").value.trim();
  const { variant, definition } = { variant: $("variant").value, ...variantSpec() };
  if (!text.includes("\n") && text.includes("/") && !text.includes("[")) {
    await openAnalysis({ variant, fen: text });
    return;
  }
  const view = await api.analysisRecord({ text, variant, definition, setup: app.variant.setups.length > 1 ? $("setup").value : null });
  await openAnalysis({ variant: view.variant, setup: view.setup, fen: view.start_fen }, view.moves);
}

function wireAnalysisBoard() {
  wireAnalysis({
    board,
    useVariant: async (key) => { if (!app.variant || app.variant.key !== key) showVariant(await variantView(key)); },
    closed: async () => {
      if (app.variant.key !== app.game.variant) showVariant(await variantView(app.game.variant));
      draw();
    },
    notice,
  });
  $("analyse").onclick = analyse;
  $("analyse-text").onclick = () => {
    $("record-error").textContent = "";
    analyseText().catch((e) => { $("record-error").textContent = e.message; });
  };
}

// -- wiring ----------------------------------------------------------------------------------------------
const STEPS = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end" };

// Show the game's start, the move before or after the one shown, or its end.
function step(where) {
  const last = app.game.history.length;
  const current = app.viewing === null ? last : app.viewing;
  const ply = { back: current - 1, forward: current + 1, start: 0, end: last }[where];
  const target = Math.max(0, Math.min(last, ply));
  if (target !== current) viewPly(target).catch((err) => notice(refusal("Showing the position", err)));
}

function stepKeys(e) { // the arrow keys step through the game (outside the board and text boxes)
  if (!app.game || analysisActive() || e.target.closest("textarea, select, input, #board, #chooser")) return;
  if (STEPS[e.key]) step(STEPS[e.key]);
}

function wire() {
  $("new").onclick = () => startNew();
  $("variant").onchange = () => {
    const option = $("variant").selectedOptions[0];
    loading(option ? option.textContent : "the variant", async () => {
      fillSetups(await variantView($("variant").value));
      await startNew();
    }).catch((e) => notice(refusal("Loading the variant", e)));
  };
  $("setup").onchange = () => startNew();
  $("undo").onclick = takeBack;
  $("flip").onclick = flipBoard;
  $("transform").onclick = () => board.selected && board.attempt(board.selected, board.selected);
  $("sound").onclick = () => {
    setSound(!soundOn());
    $("sound").setAttribute("aria-pressed", String(soundOn()));
  };
  $("sound").setAttribute("aria-pressed", String(soundOn()));
  $("stop").onclick = () => act("Stop", () => api.stop(app.game.id));
  for (const id of ["white", "black", "level"]) $(id).onchange = changePlayers;
  $("name").value = localStorage.getItem(NAME) || "";
  $("name").onchange = renameSeat;
  $("invite").onclick = () => startOnline("invite");
  $("seek").onclick = () => startOnline("open");
  wireOnline(act, api, () => app.game);
  wireTalk(() => $("name").value || null);
  wireAnalysisBoard();
  wireTimeControl();
  wireTurn();
  wireLooks();
  wirePanels();
  wireReview({ game: () => app.game, redraw: drawMoves,
    showPly: (ply) => showBetter(ply).catch((e) => notice(refusal("Showing the better move", e))) });
  $("move-form").onsubmit = (e) => {
    e.preventDefault();
    typedMove($("move-input"));
  };
  $("moves").onclick = (e) => {
    const cell = e.target.closest(".mv");
    const ply = cell && Number(cell.dataset.ply);
    if (cell) (markedPly(ply) ? showBetter(ply) : viewPly(ply)).catch((err) => notice(refusal("Showing the position", err)));
  };
  $("back-to-game").onclick = () => viewPly(app.game.history.length).catch((e) => notice(refusal("Back to the game", e)));
  window.addEventListener("keydown", stepKeys);
  for (const where of ["start", "back", "forward", "end"]) $(`mv-${where}`).onclick = () => step(where);
  window.addEventListener("morphchess:play", (e) => newGame({ definition: e.detail.definition }) // editor.js
    .catch((err) => notice(refusal("New game", err))));
  for (const radio of document.querySelectorAll('input[name="notation"]')) radio.onchange = drawMoves;
  wireRecords({
    game: () => app.game,
    loading,
    importSpec: () => ({ ...variantSpec(), level: Number($("level").value), // Black's array where there is a choice
      setup: app.variant.setups.length > 1 ? $("setup").value : null }),
    open: (created) => openGame(created, created.seat.token, created),
    play: (variant) => {
      app.variants.set(variant.key, variant);
      addVariantOption(variant.key, titleOf(variant));
      return newGame({ variant: variant.key });
    },
  });
}

async function restore() {
  const address = fromAddress();
  const id = address ? address.id : lastGame();
  if (id) {
    try {
      await openById(id, (address && address.token) || tokenOf(id));
      return;
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) { // the seat refused (a rated game's, to a guest): watch
        await openById(id, null);
        notice(e.message);
        return;
      }
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  await newGame({ variant: "chess" });
  if (id) notice(`Game ${id} was not found; a new game starts.`);
}

async function start() {
  $("level").replaceChildren(...(await api.levels()).map((l) => new Option(`${l.level} (${l.text})`, l.level)));
  $("level").value = "3";
  for (const v of await api.variants()) addVariantOption(v.key, titleOf(v));
  wire();
  const asked = analysisFromAddress(); // read before the address shows the game's link
  await restore();
  if (asked) await openAnalysis(asked).catch((e) => notice(refusal("The analysis of the link", e)));
  document.body.dataset.ready = "1";
}

start().catch((e) => notice(e instanceof ApiError ? refusal("Loading the game", e) : String(e)));
