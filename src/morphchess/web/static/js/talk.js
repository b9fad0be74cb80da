// Talk in a game: the players' and spectators' messages, live from the talk's own event stream,
// a box to write one, and for the players a switch that closes the talk to spectators.
// Every message is shown as text (textContent), whatever it contains.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

let source = null;
let shownId = null;
let spectatorsMayWrite = true;
let seated = false;
let seatedShown = false; // whether we held a seat of the game when its talk was opened

function writer(m) {
  if (m.role === "spectator") return m.name ? `${m.name} (spectator)` : "spectator";
  return m.name || m.side || "player";
}

function addMessage(m) {
  const item = document.createElement("li");
  item.className = `talk-${m.role}`;
  item.dataset.id = String(m.id);
  const who = document.createElement("span");
  who.className = "talk-who";
  who.textContent = `${writer(m)}:`;
  const text = document.createElement("span");
  text.className = "talk-text";
  text.textContent = m.text;
  item.title = m.at || "";
  item.append(who, " ", text);
  const list = $("talk-messages");
  list.append(item);
  list.scrollTop = list.scrollHeight;
}

function drawControls() {
  const canWrite = seated || spectatorsMayWrite;
  $("talk-input").disabled = !canWrite;
  $("talk-send").disabled = !canWrite;
  $("talk-input").placeholder = canWrite ? "Say something (300 characters)" : "The players closed the talk to spectators";
  $("talk-spectators-label").hidden = !seated;
  $("talk-spectators").checked = spectatorsMayWrite;
}

// The newest message shown (its id), so that a stream opened again asks only for later ones.
function newestShown() {
  const last = $("talk-messages").lastElementChild;
  return last ? Number(last.dataset.id) : 0;
}

function listen() {
  if (source) source.close();
  source = new EventSource(api.talkEventsUrl(shownId, seatedShown, newestShown()));
  source.addEventListener("audience", (e) => {
    const n = JSON.parse(e.data).spectators;
    $("audience").textContent = n ? `${n} spectator${n === 1 ? "" : "s"} watching` : "";
  });
  source.addEventListener("talk", (e) => {
    const m = JSON.parse(e.data);
    if (!$("talk-messages").querySelector(`li[data-id="${m.id}"]`)) addMessage(m);
  });
  source.addEventListener("settings", (e) => {
    spectatorsMayWrite = JSON.parse(e.data).spectators;
    drawControls();
  });
}

// Follow the talk of the game `id` (from its first message) and its number of spectators; a new
// game empties the list.  `player`: we hold a seat (and are not counted).
export function followTalk(id, player) {
  if (id === shownId) return;
  shownId = id;
  seatedShown = player;
  $("talk-messages").replaceChildren();
  $("talk-error").textContent = "";
  $("audience").textContent = "";
  if (typeof EventSource !== "undefined" && document.visibilityState !== "hidden") listen();
}

// A page out of view closes its talk stream (a browser keeps six connections to one server: the
// game's stream and the talk's take two a tab) and opens it again, for the later messages, in view.
function visibility() {
  if (!shownId || typeof EventSource === "undefined") return;
  if (document.visibilityState === "hidden") {
    if (source) source.close();
    source = null;
  } else if (!source) {
    listen();
  }
}

// The controls for the seats `you` hold in the game shown.
export function drawTalk(you) {
  seated = you.length > 0;
  drawControls();
}

// nameOf(): the name a spectator writes under.
export function wireTalk(nameOf) {
  document.addEventListener("visibilitychange", visibility);
  $("talk-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("talk-input");
    const text = input.value.trim();
    if (!text || !shownId) return;
    try {
      const m = await api.talk(shownId, text, seated ? null : nameOf());
      input.value = "";
      $("talk-error").textContent = "";
      if (!$("talk-messages").querySelector(`li[data-id="${m.id}"]`)) addMessage(m);
    } catch (err) {
      $("talk-error").textContent = `Message not sent: ${err.message}`;
    }
  });
  $("talk-spectators").addEventListener("change", async () => {
    try {
      spectatorsMayWrite = (await api.talkSpectators(shownId, $("talk-spectators").checked)).spectators;
    } catch (err) {
      $("talk-error").textContent = `Not changed: ${err.message}`;
    }
    drawControls();
  });
}
