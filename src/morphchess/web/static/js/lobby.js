// The lobby page: accepting a seek, and the lists kept live.  The server hands out the seat's token;
// the page then goes to the seat link, which keeps the token in its fragment.  The lobby's event
// stream says when its lists change; the page then reads the lobby again and puts in its new lists
// (the server's own HTML, parsed inertly: no script in it runs).

const SECTIONS = ["open", "playing", "finished"];
// A change sent with the session cookie needs its CSRF token (docs/security.md).
const csrf = fetch("/api/account").then((r) => r.json()).then((a) => a.csrf || null, () => null);

document.addEventListener("click", async (e) => {
  const button = e.target.closest("button.accept");
  if (!button) return;
  const name = document.getElementById("name").value || null;
  const response = await fetch(`/api/games/${encodeURIComponent(button.dataset.game)}/accept`, {
    method: "POST", body: JSON.stringify({ name }),
    headers: { "Content-Type": "application/json", ...((await csrf) ? { "X-CSRF-Token": await csrf } : {}) },
  });
  const answer = await response.json().catch(() => ({}));
  if (response.ok) location.href = answer.seat.link;
  else document.getElementById("lobby-error").textContent = (answer.error && answer.error.message)
    || `the server answered ${response.status}`;
});

async function refresh() {
  const response = await fetch("/lobby");
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of SECTIONS) {
    const now = document.getElementById(id);
    const next = fresh.getElementById(id);
    if (now && next) now.replaceWith(document.importNode(next, true));
  }
}

const NAME = "morphchess.name";
const nameBox = document.getElementById("name");
nameBox.value = localStorage.getItem(NAME) || "";
nameBox.addEventListener("change", () => localStorage.setItem(NAME, nameBox.value.trim()));

const source = new EventSource("/api/lobby/events");
source.addEventListener("lobby", () => { // the first one too: the lists may have changed since the page came
  refresh().catch(() => {}).finally(() => { document.body.dataset.live = "1"; });
});
source.onerror = () => { delete document.body.dataset.live; };
