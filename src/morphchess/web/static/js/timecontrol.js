// The time control of a new online game: a preset, minutes and increment of one's own, or days per
// move (correspondence), written as the server reads it ("5+3", "3d").

const $ = (id) => document.getElementById(id);

function drawChoice() {
  const kind = $("time-control").value;
  $("tc-live").hidden = kind !== "custom";
  $("tc-days-label").hidden = kind !== "days";
}

// The chosen time control as text, or null for an untimed game.
export function timeControl() {
  const kind = $("time-control").value;
  if (kind === "custom") return `${Number($("tc-minutes").value)}+${Number($("tc-increment").value)}`;
  if (kind === "days") return `${Number($("tc-days").value)}d`;
  return kind || null;
}

export function wireTimeControl() {
  $("time-control").addEventListener("change", drawChoice);
  drawChoice();
}
