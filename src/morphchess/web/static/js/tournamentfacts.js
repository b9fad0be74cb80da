// A tournament's facts in one line, for the list of tournaments and a tournament's own page.

// "Orthodox chess · 3+2 · 60 min · 4/50 players · running"
export function describe(t) {
  const when = t.state === "coming" ? `starts ${t.starts.slice(11, 16)} UTC` : t.state;
  return [t.title, t.time_control, `${t.minutes} min`, `${t.players}/${t.max_players} players`, when].join(" · ");
}
