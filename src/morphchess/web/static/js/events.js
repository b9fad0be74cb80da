// Live updates of one game: the server's event stream (Server-Sent Events) of changes, reconnecting by
// itself; where the server has no stream, polling the game's state instead.

import { api } from "./api.js";

const POLL_MS = 1000;

// The game as its stream tells it: a whole `state` (at the start, and after a reconnection or a missed
// change), then each change as the fields that differ (`change`), its new moves coming first as `move`
// events (a smaller ply: moves taken back).  Each result is a new object (the page compares old and new).
function replica(onState) {
  let game = null;
  let history = [];
  return {
    state(s) {
      game = s;
      history = s.history;
      onState(s);
    },
    move(m) {
      history = history.filter((h) => h.ply < m.ply).concat([m]);
    },
    change(c) {
      if (!game) return; // the stream always starts with a whole state
      history = history.filter((h) => h.ply <= c.ply);
      game = { ...game, ...c, history };
      onState(game);
    },
  };
}

// Follow a game: onState(state) for each new state, onEngine(info) for the engine's progress,
// onLink(ok, text) when the connection is lost or back.  Returns a function that stops following.
export function follow(id, since, { onState, onEngine, onLink }) {
  let stopped = false;
  let timer = null;
  let source = null;

  const poll = async () => {
    if (stopped) return;
    try {
      onState(await api.game(id));
      onLink(true, "");
    } catch (e) {
      onLink(false, `Connection lost: ${e.message}; retrying…`);
    }
    timer = setTimeout(poll, POLL_MS);
  };

  if (typeof EventSource === "undefined") {
    poll();
  } else {
    const game = replica(onState);
    source = new EventSource(api.eventsUrl(id, since));
    source.addEventListener("open", () => onLink(true, ""));
    source.addEventListener("state", (e) => game.state(JSON.parse(e.data)));
    source.addEventListener("move", (e) => game.move(JSON.parse(e.data)));
    source.addEventListener("change", (e) => game.change(JSON.parse(e.data)));
    source.addEventListener("engine", (e) => onEngine(JSON.parse(e.data)));
    source.addEventListener("error", () => {
      if (stopped) return;
      if (source.readyState === EventSource.CLOSED) { // refused (no stream here): poll instead
        poll();
      } else {
        onLink(false, "Connection lost: the live updates are interrupted; reconnecting…");
      }
    });
  }
  return () => {
    stopped = true;
    if (source) source.close();
    clearTimeout(timer);
  };
}
