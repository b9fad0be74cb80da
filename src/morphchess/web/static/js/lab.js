// The Lab panel: a small self-play lab on the current variant or a pasted definition, run by the
// server in the background (POST /api/lab), its progress polled, its report shown when done.

import { writeHeaders } from "./api.js";
import { el } from "./dom.js";

const POLL_MS = 1000;

async function request(method, path, body) {
  const options = { method, headers: method === "GET" ? {} : await writeHeaders() };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((data.error && data.error.message) || `the server answered ${response.status}`);
  return data;
}

function pct(rate) {
  return `${(100 * rate.rate).toFixed(1)}% (${(100 * rate.low).toFixed(1)}–${(100 * rate.high).toFixed(1)}%)`;
}

function clock(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function build(box) {
  box.replaceChildren(el("legend", {}, "Lab"));
  const intro = el("p", { class: "hint" },
    "Self-play statistics: results, endings, lengths; piece values from 50 games on, where the games support them.");
  const source = el("select", { id: "lab-source", "aria-label": "lab variant" });
  source.append(el("option", { value: "current" }, "the current variant"), el("option", { value: "pasted" }, "a pasted definition"));
  const text = el("textarea", { id: "lab-definition", rows: "4", spellcheck: "false", hidden: "",
    placeholder: "Interactive Diagram definition" });
  const games = el("input", { id: "lab-games", type: "number", min: "1", max: "100", value: "20" });
  const level = el("select", { id: "lab-level" });
  for (const n of [1, 2, 3]) level.append(el("option", { value: String(n) }, String(n)));
  const run = el("button", { id: "lab-run", type: "button" }, "Run lab");
  const progress = el("progress", { id: "lab-progress", max: "1", value: "0", hidden: "" });
  const status = el("div", { id: "lab-status", role: "status", "aria-live": "polite" });
  const result = el("div", { id: "lab-result" });
  const labelled = (name, input) => { const l = el("label", {}, name + " "); l.append(input); return l; };
  box.append(intro, labelled("Variant", source), text, labelled("Games", games), labelled("Level", level),
    el("div", { class: "buttons" }), progress, status, result);
  box.querySelector(".buttons").append(run);
  source.onchange = () => { text.hidden = source.value !== "pasted"; };
  run.onclick = () => start({ source, text, games, level, run, progress, status, result });
}

function body(ui) {
  const spec = { games: Number(ui.games.value), level: Number(ui.level.value) };
  if (ui.source.value === "pasted") spec.definition = ui.text.value;
  else spec.variant = (document.getElementById("variant") || {}).value || "chess";
  return spec;
}

async function start(ui) {
  ui.run.disabled = true;
  ui.result.replaceChildren();
  ui.status.textContent = "Starting…";
  try {
    let lab = await request("POST", "/api/lab", body(ui));
    ui.progress.hidden = false;
    while (lab.state === "running") {
      ui.progress.max = lab.total;
      ui.progress.value = lab.done;
      ui.status.textContent = `${lab.variant}: ${lab.done}/${lab.total} games` + (lab.done >= lab.total
        ? ", writing the report…" : lab.eta_seconds !== null ? `, about ${clock(lab.eta_seconds)} left` : "");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      lab = await request("GET", `/api/lab/${lab.id}`);
    }
    if (lab.state !== "done") throw new Error(lab.error); // failed, or ended with its server
    ui.progress.value = ui.progress.max;
    show(ui, lab);
  } catch (e) {
    ui.status.textContent = `Lab failed: ${e.message}`;
  } finally {
    ui.run.disabled = false;
  }
}

function show(ui, lab) {
  const s = lab.summary;
  ui.status.textContent = `${s.variant}: ${s.games} games of ${s.player} self-play` + (lab.note ? ` (${lab.note})` : "");
  const lines = [
    `White's score ${pct(s.white_score)}`,
    `Draws ${pct(s.draw)}`,
    `Mean length ${s.length.mean.toFixed(1)} plies`,
    "Endings: " + Object.entries(s.terminations).map(([k, v]) => `${k} ${v}`).join(", "),
  ];
  const list = el("ul", { id: "lab-figures" });
  for (const line of lines) list.append(el("li", {}, line));
  const link = el("a", { href: lab.report, target: "_blank", id: "lab-report-link" }, "Open the full report");
  const frame = el("iframe", { src: lab.report, title: "lab report", id: "lab-report" });
  ui.result.append(list, link, frame);
}

const box = document.getElementById("lab") || document.getElementById("panel")?.appendChild(el("fieldset", { id: "lab" }));
if (box) build(box);
