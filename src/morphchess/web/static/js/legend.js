// The piece legend: each type's symbol, name, ID, XBetza, a move diagram on an empty board and
// its morph table as a coloured board picture.

import { el, svgImage } from "./dom.js";
import { squareName } from "./board.js";

function colourOf(letter, letters) {
  const i = letters.indexOf(letter);
  return `hsl(${Math.round((i * 360) / Math.max(letters.length, 1))}, 65%, 62%)`;
}

// cell(sq, shade) -> [content or null, class, title]; rows drawn from the top rank down.
function miniBoard(variant, cell) {
  const board = el("div", { class: "mini" });
  board.style.setProperty("--files", variant.files);
  const holes = new Set(variant.holes || []);
  for (let r = variant.ranks - 1; r >= 0; r--) {
    for (let f = 0; f < variant.files; f++) {
      const sq = r * variant.files + f;
      const name = squareName(variant.files, sq);
      if (holes.has(name)) {
        board.append(el("div", { class: "hole", title: `${name}: not on the board` }));
        continue;
      }
      const [content, shade, title] = cell(sq, (f + r) % 2 === 0 ? "d" : "l");
      board.append(el("div", { class: shade, title: title || name }, content));
    }
  }
  return board;
}

function moveDiagram(variant, type) {
  const d = type.diagram;
  const kinds = {};
  for (const kind of ["move", "capture", "both", "initial", "hop", "legs"]) for (const name of d[kind] || []) kinds[name] = kind;
  return miniBoard(variant, (sq, shade) => {
    const name = squareName(variant.files, sq);
    if (name === d.square) return [el("span", { class: "here" }, svgImage(type.svg[0])), `${shade} here`];
    if (kinds[name]) return [el("span", { class: `mark ${kinds[name]}` }), shade, `${name}: ${kinds[name]}`];
    return [null, shade];
  });
}

function morphTable(variant, type) {
  const letters = variant.types.map((t) => t.letter);
  return miniBoard(variant, (sq, shade) => {
    const becomes = type.morph[sq];
    if (!becomes) return [null, shade];
    const mark = el("span", { class: "becomes" }, becomes);
    mark.style.background = colourOf(becomes, letters);
    return [mark, shade, `${squareName(variant.files, sq)}: becomes ${becomes}`];
  });
}

function card(variant, type) {
  const pics = [el("figure", {}, moveDiagram(variant, type), el("figcaption", {}, "moves"))];
  if (type.morph) pics.push(el("figure", { class: "morph" }, morphTable(variant, type), el("figcaption", {}, "morph table")));
  return el("div", { class: "legend-card", "data-letter": type.letter },
    el("div", { class: "head" },
      el("div", { class: "img" }, svgImage(type.svg[0])),
      el("div", { class: "img" }, svgImage(type.svg[1])),
      el("div", {},
        el("div", { class: "name" }, `${type.name} (${type.letter})${type.royal ? " · royal" : ""}`),
        el("div", { class: "meta" }, `XBetza ${type.betza}`),
        el("div", { class: "meta" }, `symbol: ${type.symbol}`))),
    el("div", { class: "pics" }, ...pics));
}

export function renderLegend(container, rulesBox, variant) {
  const promo = variant.promotion.zone && variant.promotion.choices.length
    ? `promotion on the last ${variant.promotion.zone} rank(s) to ${variant.promotion.choices.join(" ")}`
    : "no promotion";
  const rules = [
    `${variant.files}×${variant.ranks}`, promo, `stalemated side ${variant.rules.stalemate === "loses" ? "loses" : "draws"}`,
    variant.rules.bare_king ? "bare king loses" : null,
    ...variant.transforms.map((g) => `a turn may transform ${g.join("/")} into another of these forms`),
  ].filter(Boolean);
  const notes = variant.warnings.length ? ` Notes: ${variant.warnings.join("; ")}.` : "";
  rulesBox.textContent = `${variant.title || variant.name}: ${rules.join("; ")}.${notes}`;
  container.replaceChildren(...variant.types.map((type) => card(variant, type)));
}
