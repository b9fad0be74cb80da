// A board of points (the variant's board style "xiangqi"): the lines through the squares' centres, the
// river between the middle ranks that only the edge files cross, the palaces with their diagonals and
// the river's words.  It is drawn under the pieces; the squares stay the click targets.

import { svgEl } from "./dom.js";

// board: the variant's `board` ({style, river, palaces: [[corner, corner]], words: [path data]});
// place(name) -> [column, row] on the screen (flipped or not).
export function pointsLayer(files, ranks, board, place) {
  const name = (f, r) => String.fromCharCode(97 + f) + (r + 1);
  const at = (f, r) => place(name(f, r)).map((v) => v + 0.5);
  const line = ([x1, y1], [x2, y2]) => svgEl("line", { x1, y1, x2, y2 });
  const parts = [];
  for (let r = 0; r < ranks; r++) parts.push(line(at(0, r), at(files - 1, r)));
  for (let f = 0; f < files; f++) {
    for (let r = 0; r < ranks - 1; r++) {
      const crossesRiver = board.river !== null && r === board.river - 1;
      if (f === 0 || f === files - 1 || !crossesRiver) parts.push(line(at(f, r), at(f, r + 1)));
    }
  }
  for (const [a, b] of board.palaces || []) {
    const [f0, r0, f1, r1] = [a.charCodeAt(0) - 97, Number(a.slice(1)) - 1, b.charCodeAt(0) - 97, Number(b.slice(1)) - 1];
    parts.push(line(at(f0, r0), at(f1, r1)), line(at(f1, r0), at(f0, r1)));
  }
  if (board.river !== null && board.words) { // 楚河 on the left half, 漢界 on the right, from the viewer
    const y = (at(0, board.river - 1)[1] + at(0, board.river)[1]) / 2 - 0.4;
    board.words.forEach((d, i) => {
      const x = i < 2 ? 1 + i : files - 4.8 + i; // each word 0.8 wide, half a square in from the edge lines
      parts.push(svgEl("path", { class: "river-word", d, transform: `translate(${x} ${y}) scale(0.008)` }));
    });
  }
  return svgEl("svg", { class: "points", "aria-hidden": "true", viewBox: `0 0 ${files} ${ranks}`,
    preserveAspectRatio: "none" }, ...parts);
}
