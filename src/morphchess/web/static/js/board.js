// The board: draws squares and pieces, shows a picked-up piece's legal destinations with what it
// becomes there, and turns clicks, drags, taps and keys into moves.  It knows no rules: the legal
// moves come from the server with each game state.

import { el, svgImage } from "./dom.js";
import { Marks } from "./marks.js";
import { pointsLayer } from "./points.js";

const DRAG_PX = 5; // a press that moves farther than this is a drag, else a click

export function squareName(files, sq) {
  return String.fromCharCode(97 + (sq % files)) + (Math.floor(sq / files) + 1);
}

// The picture of a piece (its letter: upper case White, lower case Black) as an <img>, or null.
export function pieceImage(variant, letter) {
  const type = variant.types.find((t) => t.letter === letter.toUpperCase());
  return type ? svgImage(type.svg[letter === letter.toUpperCase() ? 0 : 1]) : null;
}

export function pieceName(variant, letter) {
  const type = variant.types.find((t) => t.letter === letter.toUpperCase());
  const colour = letter === letter.toUpperCase() ? "white" : "black";
  return `${colour} ${type ? type.name.toLowerCase() : letter}`;
}

export class BoardView {
  // onMove(move) plays a legal move (an entry of the state's `legal`); choose(title, moves, anchor)
  // resolves to one of `moves` or null; onSelect(square) tells that the picked-up piece changed.
  constructor(element, { onMove, choose, onSelect }) {
    this.el = element;
    this.onMove = onMove;
    this.choose = choose;
    this.onSelect = onSelect || (() => {});
    this.flipped = false;
    this.variant = null;
    this.view = null;
    this.legal = [];
    this.interactive = false;
    this.selected = null;
    this.drag = null;
    this.rightFrom = null;
    this.cursor = null; // the square that has the keyboard focus
    this.cells = new Map();
    // the pieces in hand: a button per kind; a drop's `from` is "@" and its letter (e.g. "@P")
    this.handsEl = document.createElement("div");
    this.handsEl.className = "hands";
    this.handsEl.setAttribute("role", "group");
    this.handsEl.setAttribute("aria-label", "Pieces in hand");
    element.after(this.handsEl);
    this.handsEl.addEventListener("click", (e) => {
      const from = e.target.closest("[data-from]")?.dataset.from;
      if (from) this.select(this.selected === from ? null : from);
    });
    element.addEventListener("pointerdown", (e) => this.pointerDown(e));
    element.addEventListener("contextmenu", (e) => e.preventDefault());
    element.addEventListener("keydown", (e) => this.keyDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("pointercancel", () => this.cancelDrag());
  }

  setVariant(variant) {
    this.variant = variant;
    this.selected = null;
    this.cursor = null;
    this.zone = new Set();
    this.build();
  }

  // Outline a zone of the variant (square names; none to clear it).
  showZone(squares) {
    this.zone = new Set(squares || []);
    this.draw();
  }

  flip() {
    this.flipped = !this.flipped;
    this.build();
    this.draw();
  }

  // where a square is drawn: [column, row] from the top left
  place(name) {
    const { files, ranks } = this.variant;
    const f = name.charCodeAt(0) - 97;
    const r = Number(name.slice(1)) - 1;
    return this.flipped ? [files - 1 - f, r] : [f, ranks - 1 - r];
  }

  build() {
    const { files, ranks } = this.variant;
    this.el.style.setProperty("--files", files);
    this.el.style.setProperty("--ranks", ranks);
    const holes = new Set(this.variant.holes || []);
    const board = this.variant.board || { style: "chequered" };
    const points = board.style === "xiangqi"; // pieces on the points of lines (boardstyle.py)
    this.el.classList.toggle("points", points);
    const ranksCol = el("div", { class: "ranks", "aria-hidden": "true" });
    const filesRow = el("div", { class: "files", "aria-hidden": "true" });
    const squares = el("div", { class: "squares" });
    this.cells = new Map();
    for (let row = 0; row < ranks; row++) {
      const r = this.flipped ? row : ranks - 1 - row;
      ranksCol.append(el("div", {}, String(r + 1)));
      for (let col = 0; col < files; col++) {
        const f = this.flipped ? files - 1 - col : col;
        const name = squareName(files, r * files + f);
        if (holes.has(name)) { // not on the board: drawn as a gap, never a target
          squares.append(el("div", { class: "hole", "data-hole": name, "aria-hidden": "true" }));
          continue;
        }
        const shade = points ? "point" : (f + r) % 2 === 0 ? "dark" : "light";
        const cell = el("div", { class: `sq ${shade}`, role: "button", tabindex: "-1", "data-square": name,
          "data-shade": shade });
        this.cells.set(name, cell);
        squares.append(cell);
      }
    }
    for (let col = 0; col < files; col++) {
      filesRow.append(el("div", {}, String.fromCharCode(97 + (this.flipped ? files - 1 - col : col))));
    }
    if (points) squares.prepend(pointsLayer(files, ranks, board, (name) => this.place(name)));
    const marks = this.marks || new Marks(null);
    marks.svg = marks.svg || Marks.layer();
    squares.append(marks.svg);
    this.el.replaceChildren(ranksCol, squares, el("div"), filesRow);
    this.marks = marks;
    marks.setGeometry((name) => this.place(name), files, ranks);
    this.el.classList.toggle("flipped", this.flipped);
  }

  // view: {squares, last, check}; legal: the moves the user may play now; interactive: may play them.
  render(view, legal, interactive) {
    this.view = view;
    this.legal = legal || [];
    this.interactive = interactive;
    if (this.selected && !this.movesFrom(this.selected).length) this.select(null);
    else this.draw();
  }

  // Show a move as played while the server has not answered yet (only the mover's squares).
  showPending(move) {
    const squares = [...this.view.squares];
    const index = (name) => this.variant.files * (Number(name.slice(1)) - 1) + name.charCodeAt(0) - 97;
    const to = move.castle ? move.castle.king : move.to;
    if (!move.drop) squares[index(move.from)] = "";
    if (move.castle) squares[index(move.castle.from)] = "";
    if (move.castle) squares[index(move.castle.to)] = move.castle.partner;
    if (move.unload) squares[index(move.unload)] = squares[index(move.to)];
    squares[index(to)] = move.new;
    this.view = { ...this.view, squares, last: { from: move.from, to }, check: [] };
    this.legal = [];
    this.selected = null;
    this.draw();
  }

  movesFrom(square) {
    return this.interactive ? this.legal.filter((m) => m.from === square) : [];
  }

  isTarget(from, to) {
    return this.movesFrom(from).some((m) => m.to === to);
  }

  cell(name) {
    return this.cells.get(name);
  }

  draw() {
    if (!this.variant || !this.view) return;
    const { files } = this.variant;
    const targets = this.targetsOf(this.selected);
    const path = new Set([...targets.values()].flat().flatMap((m) => m.legs || []));
    const lastLegs = (this.view.last && this.view.last.legs) || [];
    this.drawHands();
    if (!this.cursor || !this.cells.has(this.cursor)) this.cursor = this.cells.keys().next().value;
    this.view.squares.forEach((letter, sq) => {
      const name = squareName(files, sq);
      const cell = this.cells.get(name);
      if (!cell) return; // a hole
      if (cell.dataset.piece !== letter) {
        cell.dataset.piece = letter;
        cell.replaceChildren(...(letter ? [el("div", { class: "piece-img", "data-piece": letter, "aria-hidden": "true" },
          pieceImage(this.variant, letter))] : []));
      } else {
        cell.querySelector(".preview")?.remove();
      }
      const options = targets.get(name);
      const last = this.view.last && (this.view.last.from === name || this.view.last.to === name);
      cell.className = `sq ${cell.dataset.shade}`;
      cell.classList.toggle("last", Boolean(last) || lastLegs.includes(name));
      cell.classList.toggle("path", path.has(name));
      cell.classList.toggle("zone", this.zone.has(name));
      cell.classList.toggle("check", (this.view.check || []).includes(name));
      cell.classList.toggle("selected", name === this.selected);
      cell.classList.toggle("movable", this.movesFrom(name).length > 0);
      let label = `${name} ${letter ? pieceName(this.variant, letter) : "empty"}`;
      if (name === this.selected) label += ", picked up";
      if (options) {
        label += this.markTarget(cell, options);
      }
      cell.setAttribute("aria-label", label);
      cell.tabIndex = name === this.cursor ? 0 : -1;
    });
  }

  // The hands: per side a button for each kind of piece in hand, with its count.
  drawHands() {
    const hands = this.view.hands || {};
    this.handsEl.hidden = !Object.values(hands).some((pieces) => pieces.length);
    this.handsEl.replaceChildren(...Object.entries(hands).map(([side, pieces]) => {
      const buttons = pieces.map(([letter, n]) => {
        const from = `@${letter}`;
        return el("button", {
          type: "button", class: `hand-piece${from === this.selected ? " selected" : ""}`, "data-from": from,
          "aria-label": `${pieceName(this.variant, letter)} in hand, ${n}`,
          "aria-pressed": String(from === this.selected), disabled: this.movesFrom(from).length === 0,
        }, el("span", { class: "piece-img", "aria-hidden": "true" }, pieceImage(this.variant, letter)),
        el("span", { class: "count" }, String(n)));
      });
      return el("div", { class: "hand", "data-side": side }, el("span", { class: "hand-side" }, `${side}:`),
        ...(buttons.length ? buttons : [" none"]));
    }));
  }

  targetsOf(from) {
    const byTarget = new Map();
    if (!from) return byTarget;
    for (const m of this.movesFrom(from)) {
      if (!byTarget.has(m.to)) byTarget.set(m.to, []);
      byTarget.get(m.to).push(m);
    }
    return byTarget;
  }

  // Mark a destination (dot, capture ring, transformation ring, what the piece becomes); its label.
  markTarget(cell, options) {
    cell.classList.add("target");
    if (options.some((m) => m.capture)) cell.classList.add("capture");
    if (options.some((m) => m.transform)) cell.classList.add("transform");
    const preview = document.createElement("div");
    preview.className = "preview";
    preview.setAttribute("aria-hidden", "true");
    const ways = options.length > 1 && new Set(options.map((m) => m.new)).size === 1 ? ", by several ways" : "";
    if (ways) options = [options[0]]; // multi-leg moves to one square: the chooser tells them apart
    if (options.length > 1) {
      preview.classList.add("choice");
      preview.dataset.new = options.map((m) => m.new).join("");
      preview.textContent = "?";
      cell.appendChild(preview);
      return options[0].transform ? ", transform here" : ", move here and choose a piece";
    }
    const move = options[0];
    if (move.new === move.piece) return `, move here${ways}`;
    if (!cell.querySelector(".piece-img")) {
      preview.classList.add("ghost");
      cell.classList.add("becomes");
    }
    preview.dataset.new = move.new;
    preview.replaceChildren(pieceImage(this.variant, move.new) || "");
    cell.appendChild(preview);
    return `, move here, becomes ${pieceName(this.variant, move.new)}`;
  }

  select(square) {
    const next = square && this.movesFrom(square).length ? square : null;
    const changed = next !== this.selected;
    this.selected = next;
    this.draw();
    if (changed) this.onSelect(next);
  }

  // Can the picked-up piece transform where it stands (Polymorph)?
  canTransform() {
    return Boolean(this.selected) && this.isTarget(this.selected, this.selected);
  }

  async attempt(from, to) {
    const options = this.movesFrom(from).filter((m) => m.to === to);
    if (!options.length) {
      this.select(to !== from && this.movesFrom(to).length ? to : null);
      return;
    }
    let move = options[0];
    if (options.length > 1 || move.choice) {
      const legs = options.some((m) => (m.legs || []).length || m.unload);
      const title = move.transform ? "Transform into" : legs ? "Which move" : "Promote to";
      move = await this.choose(title, options, this.cell(to));
      if (!move) {
        this.draw();
        return;
      }
    }
    this.selected = null;
    this.onSelect(null);
    this.onMove(move);
  }

  squareAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const cell = hit && hit.closest ? hit.closest(".sq") : null;
    return cell && this.el.contains(cell) ? cell.dataset.square : null;
  }

  // -- pointer: click-click, drag, click-then-drag; right button: arrows and circles -------------------
  pointerDown(e) {
    const name = this.squareAt(e.clientX, e.clientY);
    if (!name) return;
    if (e.button === 2) {
      this.rightFrom = name;
      return;
    }
    if (e.button !== 0) return;
    e.preventDefault();
    this.marks.clear();
    this.cursor = name;
    if (this.selected && this.selected !== name && this.isTarget(this.selected, name)) {
      this.attempt(this.selected, name);
      return;
    }
    if (!this.movesFrom(name).length) {
      this.select(null);
      return;
    }
    const wasSelected = this.selected === name;
    this.select(name);
    this.drag = { from: name, x: e.clientX, y: e.clientY, ghost: null, wasSelected };
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) > DRAG_PX) {
      const cell = this.cell(d.from);
      const img = cell?.querySelector(".piece-img");
      d.ghost = document.createElement("div");
      d.ghost.className = "drag-ghost";
      d.ghost.style.width = d.ghost.style.height = `${cell.offsetWidth}px`;
      if (img) d.ghost.append(...[...img.childNodes].map((n) => n.cloneNode(true)));
      document.body.appendChild(d.ghost);
      if (img) img.classList.add("lifted");
    }
    if (d.ghost) {
      d.ghost.style.left = `${e.clientX - d.ghost.offsetWidth / 2}px`;
      d.ghost.style.top = `${e.clientY - d.ghost.offsetHeight / 2}px`;
    }
  }

  pointerUp(e) {
    if (e.button === 2 && this.rightFrom) {
      const to = this.squareAt(e.clientX, e.clientY);
      if (to) this.marks.toggle(this.rightFrom, to);
      this.rightFrom = null;
      return;
    }
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (d.ghost) { // a drop
      d.ghost.remove();
      const to = this.squareAt(e.clientX, e.clientY);
      if (to && to !== d.from && this.isTarget(d.from, to)) this.attempt(d.from, to);
      else this.draw();
    } else if (d.wasSelected) { // a second click on the piece: transform it if it can, else put it down
      if (this.isTarget(d.from, d.from)) this.attempt(d.from, d.from);
      else this.select(null);
    }
  }

  cancelDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
    this.draw();
  }

  // -- keyboard: arrows move over the squares, Enter or Space acts like a click ------------------------
  keyDown(e) {
    const name = e.target.closest && e.target.closest(".sq")?.dataset.square;
    if (!name) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[e.key]) {
      e.preventDefault();
      e.stopPropagation();
      const [col, row] = this.place(name);
      const [dc, dr] = steps[e.key];
      const next = [...this.cells.keys()].find((n) => {
        const [c, r] = this.place(n);
        return c === col + dc && r === row + dr;
      });
      if (next) this.focusSquare(next);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.activate(name);
    } else if (e.key === "Escape") {
      this.select(null);
    }
  }

  focusSquare(name) {
    this.cursor = name;
    for (const [n, c] of this.cells) c.tabIndex = n === name ? 0 : -1;
    this.cell(name).focus();
  }

  activate(name) {
    if (this.selected && this.isTarget(this.selected, name)) this.attempt(this.selected, name);
    else if (this.selected === name) this.select(null);
    else this.select(name);
  }
}
