// A tournament's facts in one line, for the list of tournaments and a tournament's own page.

// "Arena · Orthodox chess · 3+2 · 60 min · 4/50 players · running", "Swiss, round 2 of 5 · ..."
export function describe(t) {
  const when = t.state === "coming" ? `starts ${t.starts.slice(11, 16)} UTC` : t.state;
  const kind = t.kind === "swiss" ? `Swiss, round ${t.round} of ${t.rounds}` : "Arena";
  return [kind, t.title, t.time_control, `${t.minutes} min`, `${t.players}/${t.max_players} players`, when]
    .join(" · ");
}
