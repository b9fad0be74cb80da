// The engine's evaluation on the analysis board: a streamed request (the server's events after each
// depth), an evaluation bar (White's share, from the score) and the best line in SAN.

import { authHeaders } from "./api.js";
import { numbered } from "./engineline.js";

const $ = (id) => document.getElementById(id);
const BAR_PAWNS = 8; // a score this large fills the bar

function scoreText(info) {
  if (info.mate_white !== null && info.mate_white !== undefined) {
    return `mate in ${Math.abs(info.mate_white)} for ${info.mate_white > 0 ? "White" : "Black"}`;
  }
  const pawns = info.score_white / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

// White's share of the bar, 0 to 1.
function share(info) {
  if (info.mate_white !== null && info.mate_white !== undefined) return info.mate_white > 0 ? 1 : 0;
  const pawns = Math.max(-BAR_PAWNS, Math.min(BAR_PAWNS, info.score_white / 100));
  return 0.5 + pawns / (2 * BAR_PAWNS);
}

function show(info, ply, final) {
  const bar = $("eval-bar");
  bar.hidden = false;
  $("eval-fill").style.height = `${(share(info) * 100).toFixed(1)}%`; // White's share, from the bottom
  bar.setAttribute("aria-valuenow", String(Math.round(share(info) * 100)));
  bar.setAttribute("aria-valuetext", `${scoreText(info)} (White's view)`);
  const pv = (info.pv_san || "").split(" ").filter(Boolean);
  const parts = [`${final ? "Evaluation" : "Evaluating"}: ${scoreText(info)} (White's view)`, `depth ${info.depth}`];
  if (pv.length) parts.push(`best line: ${numbered(pv, ply)}`);
  $("eval-line").textContent = parts.join(" · ");
}

// Parse Server-Sent Events from a fetch body: calls onEvent(name, data) for each.
async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = /^event: (.*)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (name && data) onEvent(name[1], JSON.parse(data[1]));
    }
  }
}

let running = null; // the AbortController of the evaluation streaming now

export function stopEvaluation() {
  if (running) running.abort();
  running = null;
}

export function clearEvaluation() {
  stopEvaluation();
  $("eval-bar").hidden = true;
  $("eval-line").textContent = "";
}

// Evaluate a position (spec: the analysis request) whose side to move plays ply `ply` (0: White's first).
export async function evaluate(spec, ply) {
  stopEvaluation();
  const control = new AbortController();
  running = control;
  $("eval-line").textContent = "Evaluating…";
  try {
    const response = await fetch("/api/analysis/evaluate", {
      method: "POST", signal: control.signal, body: JSON.stringify(spec),
      headers: { "Content-Type": "application/json", ...authHeaders() },
    });
    if (!response.ok) {
      const text = await response.text();
      let message = text;
      try { message = JSON.parse(text).error.message; } catch (e) { /* not JSON: the text itself */ }
      $("eval-line").textContent = `No evaluation: ${message}`;
      $("eval-bar").hidden = true;
      return;
    }
    await readEvents(response.body, (name, data) => {
      if (control.signal.aborted) return;
      if (name === "error") $("eval-line").textContent = `No evaluation: ${data.error}`;
      else show(data, ply, name === "done");
    });
  } catch (e) {
    if (!control.signal.aborted) $("eval-line").textContent = `No evaluation: ${e.message}`;
  } finally {
    if (running === control) running = null;
  }
}
