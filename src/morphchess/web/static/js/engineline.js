// The engine's line as a player reads it: its side, the search depth, the score from White's side
// and the principal variation in SAN with move numbers.

function score(info) {
  if (info.mate_white !== undefined && info.mate_white !== null) {
    return `mate in ${Math.abs(info.mate_white)} for ${info.mate_white > 0 ? "White" : "Black"}`;
  }
  if (info.score_white === undefined) return null;
  const pawns = info.score_white / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)} (White's view)`;
}

// "12... Nf6 13. Bg5" from SAN words starting at ply `ply` (0: White's first move).
export function numbered(words, ply) {
  return words.map((w, i) => {
    const p = ply + i;
    const n = Math.floor(p / 2) + 1;
    if (p % 2 === 0) return `${n}. ${w}`;
    return i === 0 ? `${n}… ${w}` : w;
  }).join(" ");
}

// info: the state's `engine`; side: the engine's side; ply: the ply its search started from;
// thinking: still searching.
export function engineLine(info, side, ply, thinking) {
  if (!info || info.error) return info && info.error ? `Engine: ${info.error}` : "";
  const who = `Engine (${side === "white" ? "White" : "Black"})`;
  const parts = [];
  if (thinking) parts.push(`${who} thinking`);
  else if (info.san) parts.push(`${who} played ${numbered([info.san], ply)}${info.stopped ? " (stopped)" : ""}`);
  else return "";
  if (info.depth) parts.push(`depth ${info.depth}`);
  const s = score(info);
  if (s) parts.push(`eval ${s}`);
  if (info.seconds !== undefined) parts.push(`${info.seconds} s`);
  const pv = (info.pv_san || "").split(" ").filter(Boolean);
  if (pv.length) parts.push(`line: ${numbered(pv, ply)}`);
  return parts.join(" · ");
}
