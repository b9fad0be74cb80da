// The piece legend: each type's symbol, name, ID, XBetza, a move diagram on an empty board and
// its morph table as a coloured board picture.

import { squareName } from "./board.js";

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function colourOf(letter, letters) {
  const i = letters.indexOf(letter);
  return `hsl(${Math.round((i * 360) / Math.max(letters.length, 1))}, 65%, 62%)`;
}

// cells(sq) -> inner HTML and class of one square, rows drawn from the top rank down.
function miniBoard(variant, cell) {
  const parts = [];
  for (let r = variant.ranks - 1; r >= 0; r--) {
    for (let f = 0; f < variant.files; f++) {
      const sq = r * variant.files + f;
      const [html, style, title] = cell(sq, (f + r) % 2 === 0 ? "d" : "l");
      parts.push(`<div class="${style}" title="${title || squareName(variant.files, sq)}">${html}</div>`);
    }
  }
  return `<div class="mini" style="--files:${variant.files}">${parts.join("")}</div>`;
}

function moveDiagram(variant, type) {
  const d = type.diagram;
  const kinds = {};
  for (const kind of ["move", "capture", "both", "initial"]) for (const name of d[kind]) kinds[name] = kind;
  return miniBoard(variant, (sq, shade) => {
    const name = squareName(variant.files, sq);
    if (name === d.square) return [`<span class="here">${type.svg[0]}</span>`, `${shade} here`];
    if (kinds[name]) return [`<span class="mark ${kinds[name]}"></span>`, shade, `${name}: ${kinds[name]}`];
    return ["", shade];
  });
}

function morphTable(variant, type) {
  const letters = variant.types.map((t) => t.letter);
  return miniBoard(variant, (sq, shade) => {
    const becomes = type.morph[sq];
    if (!becomes) return ["", shade];
    const bg = colourOf(becomes, letters);
    return [`<span style="background:${bg};width:100%;height:100%;display:flex;align-items:center;`
      + `justify-content:center">${becomes}</span>`, shade, `${squareName(variant.files, sq)}: becomes ${becomes}`];
  });
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
  container.innerHTML = variant.types.map((type) => `
    <div class="legend-card" data-letter="${type.letter}">
      <div class="head">
        <div class="img">${type.svg[0]}</div>
        <div class="img">${type.svg[1]}</div>
        <div>
          <div class="name">${escapeHtml(type.name)} (${type.letter})${type.royal ? " · royal" : ""}</div>
          <div class="meta">XBetza ${escapeHtml(type.betza)}</div>
          <div class="meta">symbol: ${escapeHtml(type.symbol)}</div>
        </div>
      </div>
      <div class="pics">
        <figure>${moveDiagram(variant, type)}<figcaption>moves</figcaption></figure>
        ${type.morph ? `<figure class="morph">${morphTable(variant, type)}<figcaption>morph table</figcaption></figure>`
          : ""}
      </div>
    </div>`).join("");
}
