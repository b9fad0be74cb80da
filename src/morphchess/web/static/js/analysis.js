// The analysis board: explore variations of a game (during a local game, after any game) or of a
// pasted record or position, without changing the game.  The moves form a tree: a move's first
// reply is its main line, later ones are variations; the tree is shown in the move list, stepped
// through with buttons and keys, exported as PGN with variations, and evaluated by the engine on
// demand.  The server checks every move (the page computes no rule).

import { api } from "./api.js";
import { clearEvaluation, evaluate, stopEvaluation } from "./evaluation.js";
import { plyBase } from "./movelist.js";

const $ = (id) => document.getElementById(id);

const state = {
  active: false,
  base: null, // {variant, setup, fen, game}: what the moves start from
  nodes: [], // {uci, san, parent}: parent -1 is the start
  current: -1, // the node shown (-1: the start)
  view: null, // the server's view of the position shown
  evaluate: false, // the engine evaluates each position shown
};
let hooks = null; // {board, useVariant(key), closed(), notice(text)}

export function analysisActive() {
  return state.active;
}

function childrenOf(parent) {
  const out = [];
  state.nodes.forEach((n, i) => { if (n.parent === parent) out.push(i); });
  return out;
}

function path(node) {
  const out = [];
  for (let at = node; at >= 0; at = state.nodes[at].parent) out.unshift(state.nodes[at].uci);
  return out;
}

function spec(moves) {
  const { variant, setup, fen, game } = state.base;
  return { variant, setup, fen, game, moves };
}

function startPly() {
  return plyBase({ start_fen: state.base.fen });
}

// -- the move tree ------------------------------------------------------------------------------------
function moveButton(index, numbered) {
  const node = state.nodes[index];
  const ply = startPly() + path(index).length - 1;
  const n = Math.floor(ply / 2) + 1;
  const b = document.createElement("button");
  b.type = "button";
  b.className = index === state.current ? "amv current" : "amv";
  b.dataset.node = String(index);
  b.textContent = ply % 2 === 0 ? `${n}. ${node.san}` : numbered ? `${n}… ${node.san}` : node.san;
  b.setAttribute("aria-label", `${ply % 2 === 0 ? "White" : "Black"}: ${node.san}`);
  if (index === state.current) b.setAttribute("aria-current", "true");
  return b;
}

// The moves of a line from node `first` on, each main move followed by its variations in parentheses.
function renderLine(container, first) {
  const parts = [];
  let numbered = true;
  for (let at = first; at !== undefined; at = childrenOf(at)[0]) {
    parts.push(moveButton(at, numbered));
    const siblings = childrenOf(state.nodes[at].parent);
    numbered = siblings[0] === at && siblings.length > 1;
    if (!numbered) continue;
    for (const other of siblings.slice(1)) {
      const variation = document.createElement("span");
      variation.className = "variation";
      variation.append("(");
      renderLine(variation, other);
      variation.append(")");
      parts.push(variation);
    }
  }
  parts.forEach((part, i) => container.append(...(i ? [" ", part] : [part])));
}

function drawTree() {
  const box = $("analysis-moves");
  box.replaceChildren();
  const first = childrenOf(-1)[0];
  if (first === undefined) box.textContent = "No moves yet: play one on the board.";
  else renderLine(box, first);
  box.querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

// -- the position shown -------------------------------------------------------------------------------
function shareLink(view) {
  const params = new URLSearchParams({ analyse: "1", variant: state.base.variant, fen: view.fen });
  return new URL(`/?${params}`, location.origin).href;
}

async function show(node) {
  const view = await api.analysisPosition(spec(path(node)));
  state.current = node;
  state.view = view;
  if (node >= 0 && !state.nodes[node].san) state.nodes[node].san = view.moves[view.moves.length - 1].san;
  hooks.board.render(view, view.legal, true);
  $("analysis-status").textContent = view.outcome ? `Game over here: ${view.outcome}`
    : `${view.turn === "white" ? "White" : "Black"} to move`;
  $("analysis-fen").value = view.fen;
  $("analysis-link").value = shareLink(view);
  drawTree();
  if (state.evaluate && !view.outcome) evaluate(spec(path(node)), startPly() + view.ply);
  else clearEvaluation();
}

function showOrSay(node) {
  return show(node).catch((e) => hooks.notice(`Analysis: ${e.message}`));
}

// A move played on the board: go to it if the tree has it here, else add it (a new variation, or
// the main line where the position had no move yet).
export function analysisMove(move) {
  const known = childrenOf(state.current).find((i) => state.nodes[i].uci === move.uci);
  if (known !== undefined) return showOrSay(known);
  state.nodes.push({ uci: move.uci, san: null, parent: state.current });
  const added = state.nodes.length - 1;
  return show(added).catch((e) => {
    state.nodes.pop();
    hooks.notice(`Move ${move.uci} refused: ${e.message}`);
    return showOrSay(state.current);
  });
}

function step(where) {
  let target = state.current;
  if (where === "start") target = -1;
  else if (where === "back") target = state.current >= 0 ? state.nodes[state.current].parent : -1;
  else if (where === "forward") target = childrenOf(state.current)[0] ?? state.current;
  else if (where === "end") for (let next = childrenOf(target)[0]; next !== undefined; next = childrenOf(target)[0]) target = next;
  if (target !== state.current) showOrSay(target);
}

// -- opening and closing ----------------------------------------------------------------------------
// base: {variant, setup, fen, game}; moves: [{uci, san}] the main line; ply: how many of them to show.
export async function openAnalysis(base, moves = [], ply = moves.length) {
  stopEvaluation();
  state.base = { variant: base.variant, setup: base.setup || null, fen: base.fen || null, game: base.game || null };
  state.nodes = moves.map((m, i) => ({ uci: m.uci, san: m.san, parent: i - 1 }));
  state.active = true;
  try {
    await hooks.useVariant(state.base.variant);
    await show(ply - 1);
  } catch (e) {
    state.active = false; // nothing to analyse: the game stays as it was
    hooks.closed();
    throw e;
  }
  $("analysis").hidden = false;
  document.body.classList.add("analysing");
  $("analysis-title").focus();
}

export function closeAnalysis() {
  if (!state.active) return;
  state.active = false;
  clearEvaluation();
  $("analysis").hidden = true;
  document.body.classList.remove("analysing");
  hooks.closed();
}

async function exportPgn() {
  const text = await api.analysisPgn({ ...spec([]), nodes: state.nodes.map((n) => ({ move: n.uci, parent: n.parent })) });
  $("record-text").value = text;
  $("analysis-said").textContent = "The PGN (with the variations) is in the Records box.";
}

async function copy(id, what) {
  const input = $(id);
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    $("analysis-said").textContent = `${what} copied.`;
  } catch (e) {
    $("analysis-said").textContent = `${what} selected: copy it with Ctrl+C.`;
  }
}

function keys(e) { // Left/Right step, Home/End go to the start/the end of the line (outside text boxes)
  if (!state.active || e.target.closest("textarea, select, input, #board, #chooser")) return;
  const where = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end" }[e.key];
  if (!where) return;
  e.preventDefault();
  step(where);
}

export function wireAnalysis(given) {
  hooks = given;
  for (const where of ["start", "back", "forward", "end"]) $(`an-${where}`).onclick = () => step(where);
  $("analysis-moves").onclick = (e) => {
    const b = e.target.closest("button.amv");
    if (b) showOrSay(Number(b.dataset.node));
  };
  $("an-evaluate").onclick = () => {
    state.evaluate = !state.evaluate;
    $("an-evaluate").setAttribute("aria-pressed", String(state.evaluate));
    showOrSay(state.current);
  };
  $("an-pgn").onclick = () => exportPgn().catch((e) => hooks.notice(`Export: ${e.message}`));
  $("an-copy-fen").onclick = () => copy("analysis-fen", "The position text");
  $("an-copy-link").onclick = () => copy("analysis-link", "The link");
  $("an-close").onclick = closeAnalysis;
  window.addEventListener("keydown", keys);
}

// What the address asks to analyse (/?analyse=1&variant=KEY&fen=TEXT), or null.
export function analysisFromAddress() {
  const params = new URLSearchParams(location.search);
  if (!params.has("analyse")) return null;
  return { variant: params.get("variant") || "chess", fen: params.get("fen"), setup: params.get("setup") };
}
