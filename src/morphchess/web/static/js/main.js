// The page: game controls, move list, records, pasted definitions, engine play and the saved game.

import { api, ApiError } from "./api.js";
import { BoardView, pieceSvg } from "./board.js";
import { renderLegend } from "./legend.js";

const $ = (id) => document.getElementById(id);
const STORAGE = "morphchess.game";
const ENGINE_POLL_MS = 250;

const app = {
  variants: new Map(), // key -> variant view
  variant: null,
  game: null,
  viewing: null, // ply shown while looking at an earlier position, else null
  engineAsked: null, // "game id:ply" at which the engine was last asked to move
  polling: false,
  players: Promise.resolve(), // the queue of changes of players
};

const board = new BoardView($("board"), { onMove: playMove, choose });

function setStatus(text, over = false) {
  $("status").textContent = text;
  $("status").classList.toggle("over", over);
}

function showError(error, box) {
  const message = error instanceof ApiError ? error.message : String(error);
  if (box) box.textContent = message;
  else setStatus(message);
}

// -- the chooser (promotion, Polymorph transformation) ------------------------------------------
function choose(title, options) {
  return new Promise((resolve) => {
    const box = $("chooser");
    $("chooser-title").textContent = title;
    const names = new Map(app.variant.types.map((t) => [t.letter, t.name]));
    $("chooser-options").innerHTML = options.map((m, i) => `
      <button type="button" data-index="${i}" data-uci="${m.uci}" title="${m.uci}">
        <span class="img">${pieceSvg(app.variant, m.new)}</span>${names.get(m.new.toUpperCase()) || m.new}
      </button>`).join("");
    const finish = (value) => {
      box.hidden = true;
      $("chooser-options").onclick = null;
      $("chooser-cancel").onclick = null;
      resolve(value);
    };
    $("chooser-options").onclick = (e) => {
      const button = e.target.closest("button");
      if (button) finish(options[Number(button.dataset.index)]);
    };
    $("chooser-cancel").onclick = () => finish(null);
    box.hidden = false;
  });
}

// -- variants ---------------------------------------------------------------------------------------
async function variantView(key) {
  if (!app.variants.has(key)) app.variants.set(key, await api.variant(key));
  return app.variants.get(key);
}

function addVariantOption(key, label) {
  const select = $("variant");
  if (![...select.options].some((o) => o.value === key)) select.add(new Option(label, key));
  select.value = key;
}

function showVariant(variant) {
  app.variant = variant;
  board.setVariant(variant);
  $("variant-name").textContent = variant.name;
  addVariantOption(variant.key, variant.key.startsWith("custom-") ? `${variant.name} (pasted)` : variant.name);
  const setups = variant.setups;
  $("setup-label").hidden = setups.length < 2;
  $("setup").innerHTML = setups.map((s) => `<option value="${s}">${s}</option>`).join("");
  renderLegend($("legend"), $("rules"), variant);
}

// -- the game ----------------------------------------------------------------------------------------
function save(game) {
  const record = {
    id: game.id, variant: game.variant, setup: game.setup, fen: game.start_fen,
    moves: game.history.map((h) => h.uci), white: game.players.white, black: game.players.black, level: game.level,
  };
  if (game.variant.startsWith("custom-")) record.definition = app.variant.definition;
  localStorage.setItem(STORAGE, JSON.stringify(record));
}

// Show a game state.  A state of another game than the current one, or older than the one shown,
// is a late answer and is dropped, unless ``switching`` says that this game replaces the current one.
async function setGame(game, switching = false) {
  if (!switching && app.game && (app.game.id !== game.id || game.version < app.game.version)) return;
  if (!app.variant || app.variant.key !== game.variant) showVariant(await variantView(game.variant));
  const fresh = !app.game || app.game.id !== game.id;
  app.game = game;
  if (fresh) { // the controls show the new game's choices; later they are the user's
    app.viewing = null;
    $("setup").value = game.setup;
    $("white").value = game.players.white;
    $("black").value = game.players.black;
    $("level").value = String(game.level);
  }
  save(game);
  draw();
  maybeEngine();
}

function humanToMove(game) {
  return !game.outcome && !game.thinking && game.players[game.turn] === "human";
}

function draw() {
  const game = app.game;
  if (app.viewing === null) {
    board.render(game, game.legal, humanToMove(game));
    $("viewing").hidden = true;
    $("board").classList.remove("viewing");
  }
  drawMoves();
  $("stop").disabled = !game.thinking;
  const engine = game.engine || {};
  if (game.thinking) {
    const parts = ["thinking…"];
    if (engine.depth) parts.push(`depth ${engine.depth}`);
    if (engine.mate) parts.push(`mate in ${engine.mate}`);
    else if (engine.score !== undefined) parts.push(`score ${(engine.score / 100).toFixed(2)}`);
    if (engine.pv) parts.push(engine.pv);
    $("engine-line").textContent = "Engine " + parts.join(" · ");
  } else if (engine.error) {
    $("engine-line").textContent = engine.error;
  } else if (engine.move) {
    const score = engine.mate ? `mate in ${engine.mate}` : `score ${(engine.score / 100).toFixed(2)}`;
    $("engine-line").textContent = `Engine played ${engine.move} (depth ${engine.depth}, ${score}, ${engine.seconds} s)`;
  } else {
    $("engine-line").textContent = "";
  }
  const side = game.turn === "white" ? "White" : "Black";
  if (game.outcome) setStatus(`Game over: ${game.outcome.text}`, true);
  else if (game.thinking) setStatus(`${side} to move: the engine is thinking`);
  else setStatus(`${side} to move${game.check.length ? ": check!" : ""}`);
}

function drawMoves() {
  const game = app.game;
  const notation = document.querySelector('input[name="notation"]:checked').value;
  const current = app.viewing === null ? game.history.length : app.viewing;
  // a game set up with Black to move starts its list with "1. …, black's move"
  const fields = (game.start_fen || "").split(" ");
  const offset = fields[1] === "b" ? 1 : 0;
  $("moves").start = Number(fields[5]) || 1;
  const rows = [];
  game.history.forEach((h, j) => {
    const row = Math.floor((j + offset) / 2);
    if (!rows[row]) rows[row] = j === 0 && offset ? ['<span class="mv-gap">…</span>'] : [];
    const cls = j + 1 === current ? "mv current" : "mv";
    rows[row].push(`<span class="${cls}" data-ply="${j + 1}" title="${h.uci}">${h[notation]}</span>`);
  });
  $("moves").innerHTML = rows.map((cells) => `<li>${cells.join("")}</li>`).join("");
  const currentCell = $("moves").querySelector(".current");
  if (currentCell && app.viewing === null) currentCell.scrollIntoView({ block: "nearest" });
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

async function playMove(uci) {
  try {
    await setGame(await api.move(app.game.id, uci));
  } catch (e) {
    showError(e);
    draw();
  }
}

// -- the engine ----------------------------------------------------------------------------------------
async function maybeEngine() {
  const game = app.game;
  if (game.thinking) {
    poll();
    return;
  }
  const asked = `${game.id}:${game.history.length}`;
  if (game.outcome || game.players[game.turn] !== "engine" || app.engineAsked === asked) return;
  if (game.engine && game.engine.error) return;
  app.engineAsked = asked;
  try {
    await setGame(await api.engine(game.id, game.level));
  } catch (e) {
    showError(e);
  }
}

async function poll() {
  if (app.polling) return;
  app.polling = true;
  await new Promise((resolve) => setTimeout(resolve, ENGINE_POLL_MS));
  app.polling = false;
  try {
    await setGame(await api.game(app.game.id));
  } catch (e) {
    showError(e);
  }
}

// -- controls ------------------------------------------------------------------------------------------
async function newGame(spec) {
  const game = await api.newGame({
    white: $("white").value, black: $("black").value, level: Number($("level").value), ...spec,
  });
  if (board.flipped !== (game.players.white === "engine" && game.players.black === "human")) board.flip();
  await setGame(game, true);
}

function currentVariantSpec() {
  const key = $("variant").value;
  return key.startsWith("custom-") ? { definition: app.variants.get(key).definition } : { variant: key };
}

async function takeBack() {
  const game = app.game;
  const n = game.history.length;
  if (!n) return;
  const other = { white: "black", black: "white" };
  const sideAfter = (k) => (k % 2 === 0 ? game.turn : other[game.turn]);
  let plies = 1;
  const bothEngines = game.players.white === "engine" && game.players.black === "engine";
  while (!bothEngines && plies < n && game.players[sideAfter(plies)] === "engine") plies++;
  try {
    await setGame(await api.undo(game.id, plies));
  } catch (e) {
    showError(e);
  }
}

// Changes of players are sent one after the other, each with the choices as they are then,
// so that quick changes reach the server in order.
function changePlayers() {
  app.players = app.players.then(async () => {
    try {
      app.engineAsked = null; // the engine may now have to move here
      await setGame(await api.setPlayers(app.game.id, {
        white: $("white").value, black: $("black").value, level: Number($("level").value),
      }));
    } catch (e) {
      showError(e);
    }
  });
}

async function exportRecord(format) {
  $("record-error").textContent = "";
  try {
    $("record-text").value = await api.record(app.game.id, format);
  } catch (e) {
    showError(e, $("record-error"));
  }
}

async function importRecord() {
  $("record-error").textContent = "";
  try {
    const game = await api.importRecord({
      text: $("record-text").value, ...currentVariantSpec(), setup: $("setup").value || null,
      white: "human", black: "human", level: Number($("level").value),
    });
    await setGame(game, true);
  } catch (e) {
    showError(e, $("record-error"));
  }
}

async function loadDefinition() {
  $("definition-error").textContent = "";
  const text = $("definition").value;
  try {
    const variant = await api.define(text);
    app.variants.set(variant.key, variant);
    await newGame({ definition: text });
    if (variant.warnings.length) $("definition-error").textContent = "Note: " + variant.warnings.join("; ");
  } catch (e) {
    showError(e, $("definition-error"));
  }
}

function wire() {
  $("new").onclick = () => newGame({ ...currentVariantSpec(), setup: $("setup").value || null }).catch((e) => showError(e));
  $("variant").onchange = async () => {
    const key = $("variant").value;
    const variant = await variantView(key);
    $("setup-label").hidden = variant.setups.length < 2;
    $("setup").innerHTML = variant.setups.map((s) => `<option value="${s}">${s}</option>`).join("");
    newGame({ ...currentVariantSpec() }).catch((e) => showError(e));
  };
  $("undo").onclick = takeBack;
  $("flip").onclick = () => board.flip();
  $("stop").onclick = async () => {
    try {
      await setGame(await api.stop(app.game.id));
    } catch (e) {
      showError(e);
    }
  };
  for (const id of ["white", "black", "level"]) $(id).onchange = changePlayers;
  $("moves").onclick = (e) => {
    const cell = e.target.closest(".mv");
    if (cell) viewPly(Number(cell.dataset.ply)).catch((err) => showError(err));
  };
  $("back-to-game").onclick = () => viewPly(app.game.history.length);
  window.addEventListener("keydown", (e) => { // arrow keys step through the game
    if (!app.game || e.target.closest("textarea, select, input") || !["ArrowLeft", "ArrowRight"].includes(e.key)) return;
    const last = app.game.history.length;
    const current = app.viewing === null ? last : app.viewing;
    const ply = Math.max(0, Math.min(last, current + (e.key === "ArrowLeft" ? -1 : 1)));
    if (ply !== current) viewPly(ply).catch((err) => showError(err));
  });
  for (const radio of document.querySelectorAll('input[name="notation"]')) radio.onchange = drawMoves;
  $("export-pgn").onclick = () => exportRecord("pgn");
  $("export-gc").onclick = () => exportRecord("gc");
  $("import").onclick = importRecord;
  $("load-definition").onclick = loadDefinition;
}

async function restore() {
  const saved = JSON.parse(localStorage.getItem(STORAGE) || "null");
  if (saved) {
    try {
      await setGame(await api.game(saved.id), true);
      return;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    try { // the server was restarted: rebuild the game from the saved record
      const spec = saved.definition ? { definition: saved.definition } : { variant: saved.variant };
      await setGame(await api.newGame({
        ...spec, setup: saved.setup, fen: saved.fen, moves: saved.moves,
        white: saved.white, black: saved.black, level: saved.level,
      }), true);
      return;
    } catch (e) {
      localStorage.removeItem(STORAGE);
    }
  }
  await newGame({ variant: "chess" });
}

async function start() {
  $("level").innerHTML = (await api.levels())
    .map((l) => `<option value="${l.level}">${l.level} (${l.text})</option>`).join("");
  $("level").value = "3";
  for (const v of await api.variants()) addVariantOption(v.key, v.key);
  wire();
  await restore();
  document.body.dataset.ready = "1";
}

start().catch((e) => showError(e));
