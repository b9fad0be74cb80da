// The live editor: a definition's text beside a picture of its start position, its piece legend and
// morph tables, all redrawn from the server's check (POST /api/editor/check) a moment after each
// change, with the errors and warnings at their line and column.  "Play" starts a game on the edited
// text (main.js listens for the "morphchess:play" event), "Quick lab" runs the Lab panel on it.  The
// text is kept in localStorage, so unsaved edits survive a reload.  Everything from the server or the
// text reaches the page as text (dom.js): names in a definition cannot add elements.
// Also here: "Picture of the game's position", the game shown as an SVG picture to share
// (GET /api/pictures/{variant}.svg with the last move as an arrow and a king in check highlighted).

import { writeHeaders } from "./api.js";
import { el, svgImage } from "./dom.js";
import { renderLegend } from "./legend.js";
import { lastGame } from "./seats.js";

const KEY = "morphchess.editor";
const DELAY_MS = 400; // after the last keystroke
const LAB_GAMES = "4";

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", ...(await writeHeaders()) }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((data.error && data.error.message) || `the server answered ${response.status}`);
  return data;
}

function place(note) {
  if (!note.line) return "";
  return note.column ? `line ${note.line}, column ${note.column}: ` : `line ${note.line}: `;
}

// Put the text cursor where a note points, so the user sees the place at once.
function jumpTo(text, note) {
  if (!note.line) return;
  const lines = text.value.split("\n");
  let at = 0;
  for (let i = 0; i < note.line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (note.column || 1) - 1);
  text.focus();
  text.setSelectionRange(at, at + 1);
}

function build(box) {
  const text = el("textarea", {
    id: "editor-text", rows: "16", spellcheck: "false", "aria-label": "definition text being edited",
    placeholder: "files=8 ranks=8 ... knight:N:N:knight:b1,g1 ...",
  });
  const from = el("button", { id: "editor-from", type: "button" }, "Copy the current variant");
  const play = el("button", { id: "editor-play", type: "button", disabled: true }, "Play this definition");
  const lab = el("button", { id: "editor-lab", type: "button", disabled: true }, "Quick lab");
  const status = el("div", { id: "editor-status", role: "status", "aria-live": "polite" });
  const notes = el("ul", { id: "editor-notes", "aria-label": "errors and warnings" });
  const picture = el("div", { id: "editor-board" });
  const rules = el("div", { id: "editor-rules" });
  const legend = el("div", { id: "editor-legend" });
  box.replaceChildren(
    el("h2", {}, "Edit a definition"),
    el("p", { class: "hint" }, "Type or paste an Interactive Diagram definition: the board, the pieces and the "
      + "morph tables below follow every change. Your text is kept in this browser."),
    el("div", { class: "editor-grid" },
      el("div", { class: "editor-text" }, text, el("div", { class: "buttons" }, from, play, lab), status, notes),
      el("div", { class: "editor-view" }, picture)),
    rules, legend);
  return { text, from, play, lab, status, notes, picture, rules, legend };
}

function showNotes(ui, answer) {
  const items = [...answer.errors.map((n) => ["error", n]), ...answer.warnings.map((n) => ["warning", n])];
  ui.notes.replaceChildren(...items.map(([kind, note]) => {
    const item = el("li", { class: `editor-${kind}`, "data-line": note.line || "" },
      `${kind === "error" ? "Error" : "Warning"}: ${place(note)}${note.message}`);
    item.onclick = () => jumpTo(ui.text, note);
    return item;
  }));
}

function show(ui, answer) {
  showNotes(ui, answer);
  ui.play.disabled = ui.lab.disabled = !answer.ok;
  if (!answer.ok) {
    ui.status.textContent = "The definition does not load; the pictures show the last text that did.";
    return;
  }
  const v = answer.variant;
  ui.status.textContent = `${v.title || v.name}: ${v.files}×${v.ranks}, ${v.types.length} piece types`
    + (answer.warnings.length ? `, ${answer.warnings.length} warning(s)` : "");
  const image = svgImage(answer.picture, "editor-picture");
  image.alt = `Start position of ${v.title || v.name}`;
  ui.picture.replaceChildren(image);
  ui.picture.dataset.squares = answer.start.squares.join(",");
  renderLegend(ui.legend, ui.rules, v);
}

function wire(ui) {
  let timer = null;
  let asked = 0; // answers to older texts than the latest asked are dropped
  const checkNow = async () => {
    const n = ++asked;
    const definition = ui.text.value;
    if (!definition.trim()) {
      ui.status.textContent = "";
      ui.notes.replaceChildren();
      return;
    }
    try {
      const answer = await post("/api/editor/check", { definition });
      if (n === asked) show(ui, answer);
    } catch (e) {
      if (n === asked) ui.status.textContent = `Check refused: ${e.message}`;
    }
  };
  ui.text.addEventListener("input", () => {
    localStorage.setItem(KEY, ui.text.value);
    clearTimeout(timer);
    timer = setTimeout(checkNow, DELAY_MS);
  });
  ui.from.onclick = async () => {
    const key = (document.getElementById("variant") || {}).value || "chess";
    const response = await fetch(`/api/variants/${encodeURIComponent(key)}`);
    const view = await response.json();
    if (!response.ok || !view.definition) return;
    ui.text.value = view.definition;
    localStorage.setItem(KEY, ui.text.value);
    checkNow();
  };
  ui.play.onclick = () => window.dispatchEvent(new CustomEvent("morphchess:play", {
    detail: { definition: ui.text.value },
  }));
  ui.lab.onclick = () => {
    const source = document.getElementById("lab-source");
    const text = document.getElementById("lab-definition");
    if (!source || !text) return;
    source.value = "pasted";
    source.dispatchEvent(new Event("change"));
    text.value = ui.text.value;
    document.getElementById("lab-games").value = LAB_GAMES;
    document.getElementById("lab-run").click();
  };
  const kept = localStorage.getItem(KEY);
  if (kept) {
    ui.text.value = kept;
    checkNow();
  }
}

// The picture of the game shown now: its position, last move and check, as the server draws them.
async function sharePicture(out) {
  const id = lastGame();
  if (!id) return;
  const response = await fetch(`/api/games/${encodeURIComponent(id)}`);
  const game = await response.json();
  if (!response.ok) throw new Error((game.error && game.error.message) || `the server answered ${response.status}`);
  const last = game.last && !game.last.from.startsWith("@") ? `${game.last.from}${game.last.to}` : "";
  const query = new URLSearchParams({ fen: game.fen, arrows: last, highlight: game.check.join(" ") });
  const url = `/api/pictures/${encodeURIComponent(game.variant)}.svg?${query}`;
  const link = el("a", { id: "picture-link", href: url, download: `${game.variant}-${game.ply}.svg`, target: "_blank" },
    "Download the picture (SVG)");
  const image = el("img", { class: "editor-picture", src: url, alt: `Picture of the position after ply ${game.ply}` });
  out.replaceChildren(image, link);
}

// The button sits in the editor's box, not among the board's tools: the play area keeps its layout.
function wireSharing(box) {
  const button = el("button", { id: "picture-button", type: "button" }, "Picture of the game's position");
  const out = el("div", { id: "picture-out" });
  box.append(el("h3", {}, "Share the game shown"), el("div", { class: "buttons" }, button), out);
  button.onclick = () => sharePicture(out).catch((e) => { out.textContent = `No picture: ${e.message}`; });
}

const box = document.getElementById("editor-box");
if (box) {
  wire(build(box));
  wireSharing(box);
}
