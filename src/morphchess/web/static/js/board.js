// The board: draws squares and pieces, shows a picked-up piece's legal destinations with what it
// becomes there, and turns clicks and drags into moves.  It knows no rules: the legal moves come
// from the server with each game state.

export function squareName(files, sq) {
  return String.fromCharCode(97 + (sq % files)) + (Math.floor(sq / files) + 1);
}

export function pieceSvg(variant, letter) {
  const type = variant.types.find((t) => t.letter === letter.toUpperCase());
  if (!type) return "";
  return type.svg[letter === letter.toUpperCase() ? 0 : 1];
}

export class BoardView {
  // onMove(uci) plays a move; choose(title, options) resolves to the chosen option or null.
  constructor(element, { onMove, choose }) {
    this.el = element;
    this.onMove = onMove;
    this.choose = choose;
    this.flipped = false;
    this.variant = null;
    this.view = null;
    this.legal = [];
    this.interactive = false;
    this.selected = null;
    this.drag = null;
    element.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("keydown", (e) => { if (e.key === "Escape") this.select(null); });
  }

  setVariant(variant) {
    this.variant = variant;
    this.selected = null;
    this.el.style.setProperty("--files", variant.files);
    this.el.style.setProperty("--ranks", variant.ranks);
    document.documentElement.style.setProperty("--files", variant.files);
    document.documentElement.style.setProperty("--ranks", variant.ranks);
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw();
  }

  // view: {squares, last, check}; legal: the moves the user may play now (empty: look only).
  render(view, legal, interactive) {
    this.view = view;
    this.legal = legal || [];
    this.interactive = interactive;
    if (this.selected && !this.movesFrom(this.selected).length) this.selected = null;
    this.draw();
  }

  movesFrom(square) {
    return this.interactive ? this.legal.filter((m) => m.from === square) : [];
  }

  draw() {
    if (!this.variant || !this.view) return;
    const { files, ranks } = this.variant;
    const parts = [];
    for (let row = 0; row < ranks; row++) {
      const r = this.flipped ? row : ranks - 1 - row;
      parts.push(`<div class="coord rank">${r + 1}</div>`);
      for (let col = 0; col < files; col++) {
        const f = this.flipped ? files - 1 - col : col;
        const sq = r * files + f;
        const name = squareName(files, sq);
        const letter = this.view.squares[sq];
        const shade = (f + r) % 2 === 0 ? "dark" : "light";
        const piece = letter
          ? `<div class="piece-img" data-piece="${letter}">${pieceSvg(this.variant, letter)}</div>` : "";
        parts.push(`<div class="sq ${shade}" data-square="${name}">${piece}</div>`);
      }
    }
    parts.push('<div class="coord"></div>');
    for (let col = 0; col < files; col++) {
      const f = this.flipped ? files - 1 - col : col;
      parts.push(`<div class="coord file">${String.fromCharCode(97 + f)}</div>`);
    }
    this.el.innerHTML = parts.join("");
    this.el.classList.toggle("flipped", this.flipped);
    const mark = (name, cls) => {
      const cell = this.cell(name);
      if (cell) cell.classList.add(cls);
    };
    if (this.view.last) {
      mark(this.view.last.from, "last");
      mark(this.view.last.to, "last");
    }
    for (const name of this.view.check || []) mark(name, "check");
    if (this.selected) this.showTargets(this.selected);
  }

  cell(name) {
    return this.el.querySelector(`.sq[data-square="${name}"]`);
  }

  showTargets(from) {
    this.cell(from)?.classList.add("selected");
    const byTarget = new Map();
    for (const m of this.movesFrom(from)) {
      if (!byTarget.has(m.to)) byTarget.set(m.to, []);
      byTarget.get(m.to).push(m);
    }
    for (const [to, options] of byTarget) {
      const cell = this.cell(to);
      if (!cell) continue;
      cell.classList.add("target");
      if (options.some((m) => m.capture)) cell.classList.add("capture");
      if (options.some((m) => m.transform)) cell.classList.add("transform");
      const preview = document.createElement("div");
      preview.className = "preview";
      if (options.length > 1) {
        preview.classList.add("choice");
        preview.dataset.new = options.map((m) => m.new).join("");
        preview.textContent = "?";
        preview.title = "choose: " + preview.dataset.new;
      } else if (options[0].new !== options[0].piece) {
        // on an empty square the piece-to-be is shown large and faint, on a capture in the corner
        if (!cell.querySelector(".piece-img")) preview.classList.add("ghost");
        preview.dataset.new = options[0].new;
        preview.innerHTML = pieceSvg(this.variant, options[0].new);
        preview.title = "becomes " + options[0].new;
      } else {
        continue;
      }
      cell.appendChild(preview);
    }
  }

  select(square) {
    this.selected = square && this.movesFrom(square).length ? square : null;
    this.draw();
  }

  async attempt(from, to) {
    const options = this.movesFrom(from).filter((m) => m.to === to);
    if (!options.length) {
      this.select(to !== from && this.movesFrom(to).length ? to : null);
      return;
    }
    let move = options[0];
    if (options.length > 1 || move.choice) {
      const title = move.transform ? "Transform into" : "Promote to";
      move = await this.choose(title, options);
      if (!move) {
        this.draw();
        return;
      }
    }
    this.selected = null;
    this.onMove(move.uci);
  }

  squareAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const cell = hit && hit.closest ? hit.closest(".sq") : null;
    return cell && this.el.contains(cell) ? cell.dataset.square : null;
  }

  pointerDown(e) {
    const name = this.squareAt(e.clientX, e.clientY);
    if (!name || e.button !== 0) return;
    e.preventDefault();
    if (this.selected && this.selected !== name && this.movesFrom(this.selected).some((m) => m.to === name)) {
      this.attempt(this.selected, name);
      return;
    }
    if (this.selected === name) {
      // a second click on the piece: transform it (Polymorph) if it can, else put it down
      if (this.movesFrom(name).some((m) => m.to === name)) this.attempt(name, name);
      else this.select(null);
      return;
    }
    if (!this.movesFrom(name).length) {
      this.select(null);
      return;
    }
    this.select(name);
    this.drag = { from: name, x: e.clientX, y: e.clientY, ghost: null };
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 5) {
      const img = this.cell(d.from)?.querySelector(".piece-img");
      d.ghost = document.createElement("div");
      d.ghost.className = "drag-ghost";
      d.ghost.innerHTML = img ? img.innerHTML : "";
      document.body.appendChild(d.ghost);
      if (img) img.style.opacity = "0.3";
    }
    if (d.ghost) {
      d.ghost.style.left = `${e.clientX - 32}px`;
      d.ghost.style.top = `${e.clientY - 32}px`;
    }
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (!d.ghost) return; // a click: the piece stays picked up
    d.ghost.remove();
    const to = this.squareAt(e.clientX, e.clientY);
    if (to && to !== d.from) this.attempt(d.from, to);
    else this.draw();
  }
}
