// Arrows and circles drawn with the right mouse button over the board (press on one square, release
// on another for an arrow, on the same square for a circle; again to remove; a left click clears all).

import { svgEl } from "./dom.js";

export class Marks {
  constructor(svg) {
    this.svg = svg;
    this.marks = new Map(); // "from to" -> {from, to}
    this.place = null; // square name -> [column, row] on the screen
  }

  // The drawing layer laid over the squares.
  static layer() {
    return svgEl("svg", { class: "marks", "aria-hidden": "true", preserveAspectRatio: "none" });
  }

  setGeometry(place, files, ranks) {
    this.place = place;
    this.svg.setAttribute("viewBox", `0 0 ${files} ${ranks}`);
    this.draw();
  }

  toggle(from, to) {
    const key = `${from} ${to}`;
    if (this.marks.has(key)) this.marks.delete(key);
    else this.marks.set(key, { from, to });
    this.draw();
  }

  clear() {
    if (!this.marks.size) return;
    this.marks.clear();
    this.draw();
  }

  get count() {
    return this.marks.size;
  }

  draw() {
    const parts = [svgEl("defs", {}, svgEl("marker", { id: "arrow-head", markerWidth: 4, markerHeight: 4, refX: 2,
      refY: 2, orient: "auto", markerUnits: "strokeWidth" }, svgEl("path", { d: "M0,0 L4,2 L0,4 z",
      fill: "rgba(21,120,27,0.8)" })))];
    for (const { from, to } of this.marks.values()) {
      const [x1, y1] = this.place(from).map((v) => v + 0.5);
      const [x2, y2] = this.place(to).map((v) => v + 0.5);
      if (from === to) {
        parts.push(svgEl("circle", { class: "mark-circle", "data-square": from, cx: x1, cy: y1, r: 0.44 }));
      } else { // the line stops short of the centre so that the head ends there
        const len = Math.hypot(x2 - x1, y2 - y1);
        const ex = x2 - ((x2 - x1) / len) * 0.3;
        const ey = y2 - ((y2 - y1) / len) * 0.3;
        parts.push(svgEl("line", { class: "mark-arrow", "data-from": from, "data-to": to, x1, y1, x2: ex, y2: ey,
          "marker-end": "url(#arrow-head)" }));
      }
    }
    this.svg.replaceChildren(...parts);
  }
}
