// Live updates of one game: the server's event stream (Server-Sent Events), reconnecting by itself;
// where the server has no stream, polling the game's state instead.

import { api } from "./api.js";

const POLL_MS = 1000;

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
    source = new EventSource(api.eventsUrl(id, since));
    source.addEventListener("open", () => onLink(true, ""));
    source.addEventListener("state", (e) => onState(JSON.parse(e.data)));
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
