// The engine's review of a finished game (docs/web.md): the Review button (a game that ends is queued for
// its review by the server, and the page follows it without a click), its progress, an evaluation
// graph (White's share of each position, from the scores) and the marked moves in the move list,
// each of which shows the engine's better move on the board when clicked.

import { api, ApiError } from "./api.js";
import { el, svgEl } from "./dom.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
const QUEUED_POLL_MS = 3000; // a review waiting for the engine is read less often
const GRAPH_PAWNS = 8; // a score this large reaches the graph's edge
const MARK_CLASS = { "??": "mark-blunder", "?": "mark-mistake", "?!": "mark-inaccuracy" };

const state = { id: null, review: null, polling: false, redraw: () => {} };

// The review's ply `ply` when its move is marked, else null.
export function markedPly(ply) {
  const p = state.review && state.review.plies[ply - 1];
  return p && p.mark ? p : null;
}

// White's share of a score, 0 (Black wins) to 1 (White wins).
function share(score) {
  return 0.5 + Math.max(-GRAPH_PAWNS, Math.min(GRAPH_PAWNS, score / 100)) / (2 * GRAPH_PAWNS);
}

function scoreText(p) {
  if (p.mate !== null) return p.mate === 0 ? "mate" : `mate in ${Math.abs(p.mate)} for ${p.mate > 0 ? "White" : "Black"}`;
  return `${p.score > 0 ? "+" : ""}${(p.score / 100).toFixed(2)}`;
}

function drawGraph(review) {
  const graph = $("review-graph");
  const points = [review.start || { score: 0 }, ...review.plies];
  const width = Math.max(review.total, 1);
  const at = (i, p) => [i, 100 * (1 - share(p.score))];
  const line = points.map((p, i) => at(i, p).join(",")).join(" ");
  const parts = [svgEl("line", { class: "review-even", x1: 0, y1: 50, x2: width, y2: 50 }),
    svgEl("polyline", { class: "review-line", points: line })];
  for (const p of review.plies.filter((q) => q.mark)) {
    const [x, y] = at(p.ply, p);
    parts.push(svgEl("circle", { class: `review-point ${MARK_CLASS[p.mark]}`, "data-ply": p.ply, cx: x, cy: y, r: 2.5 },
      svgEl("title", {}, `${p.san}${p.mark} (${scoreText(p)}); better: ${p.best}`)));
  }
  graph.setAttribute("viewBox", `0 0 ${width} 100`);
  graph.replaceChildren(...parts);
}

function statusText(review) {
  if (review.state === "failed") return `The review failed: ${review.error}`;
  if (review.state === "queued") return "The engine will review this game shortly…";
  if (review.state === "running") return `Reviewing: ${review.done} of ${review.total} moves`;
  const marked = review.plies.filter((p) => p.mark).length;
  return `Reviewed (${review.nodes} engine nodes a position): ${marked} move${marked === 1 ? "" : "s"} marked`;
}

function show(review) {
  state.review = review;
  $("review-status").textContent = statusText(review);
  $("review-start").hidden = review.state !== "failed";
  $("review-graph").hidden = review.state === "queued";
  drawGraph(review);
  state.redraw();
}

async function poll(id) {
  if (state.polling) return;
  state.polling = true;
  try {
    while (state.id === id) {
      const review = await api.review(id);
      if (state.id !== id) return;
      show(review);
      if (review.state !== "running" && review.state !== "queued") return;
      await new Promise((done) => { setTimeout(done, review.state === "queued" ? QUEUED_POLL_MS : POLL_MS); });
    }
  } finally {
    state.polling = false;
  }
}

function refused(e) {
  $("review-status").textContent = `No review: ${e.message}`;
}

// Show the review part of a game: hidden until the game is over, then its review if it has one.
export function drawReview(game) {
  const over = game.status === "over" && game.history.length > 0;
  $("review").hidden = !over;
  if (!over || state.id === game.id) return;
  Object.assign(state, { id: game.id, review: null });
  $("review-start").hidden = false;
  $("review-status").textContent = "";
  $("review-graph").hidden = true;
  poll(game.id).catch((e) => { if (!(e instanceof ApiError && e.status === 404)) refused(e); });
}

// Add the review's marks to the move list's buttons.
export function markMoves(list) {
  for (const cell of list.querySelectorAll(".mv")) {
    const p = markedPly(Number(cell.dataset.ply));
    if (!p) continue;
    cell.classList.add("marked", MARK_CLASS[p.mark]);
    cell.append(el("span", { class: "mv-mark" }, p.mark));
    cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}${p.mark}, better: ${p.best}`);
    cell.title = `better: ${p.best}`;
  }
}

// redraw(): the move list again; showPly(ply): show that marked move's better move on the board.
export function wireReview({ game, redraw, showPly }) {
  state.redraw = redraw;
  $("review-start").onclick = () => {
    const id = game().id;
    $("review-status").textContent = "Starting the review…";
    api.startReview(id).then(show).then(() => poll(id)).catch(refused);
  };
  $("review-graph").onclick = (e) => {
    const point = e.target.closest(".review-point");
    if (point) showPly(Number(point.dataset.ply));
  };
}
