// The account control in the page's header: sign up or log in (the seats this browser holds go with
// the request, and the server claims those their tokens really hold), the account's name linking to
// its profile, the correspondence games awaiting its move (asked again as often as the server says,
// while the page is shown), and log out.  Accounts are optional: the page plays the same without one.

import { accountChanged, api, currentAccount } from "./api.js";
import { el } from "./dom.js";
import { heldGames, keepToken, tokenOf } from "./seats.js";

const box = document.getElementById("account");
const waiting = { timer: null, asked: 0 }; // the next ask of the games awaiting the account's move

// One game awaiting the account's move: a link to it and, if this browser holds no seat of it, "Play here".
function awaitingItem(g) {
  const text = `${g.title} against ${g.opponent || "a guest"}${g.deadline ? ` (until ${new Date(g.deadline).toLocaleString()})` : ""}`;
  const li = el("li", { "data-game": g.id }, el("a", { href: g.link }, text));
  if (!tokenOf(g.id)) {
    const here = el("button", { type: "button", class: "play-here" }, "Play here");
    here.addEventListener("click", () => api.seatHere(g.id).then(({ seat }) => {
      keepToken(g.id, seat.token);
      location.href = seat.link;
    }, () => {}));
    li.append(" ", here);
  }
  return li;
}

function drawAwaiting(games) {
  const list = document.getElementById("your-move");
  if (!list) return;
  list.hidden = games.length === 0;
  list.querySelector("summary").textContent = `Your move: ${games.length}`;
  list.querySelector("ul").replaceChildren(...games.map(awaitingItem));
}

// Ask for the games awaiting the account's move now, then again after the server's interval (a hidden
// page waits until it is shown).
async function askAwaiting() {
  clearTimeout(waiting.timer);
  const asked = ++waiting.asked;
  let next = 60;
  try {
    const answer = await api.yourMove();
    if (asked !== waiting.asked) return;
    drawAwaiting(answer.games);
    next = answer.poll_seconds;
  } catch {
    if (asked !== waiting.asked) return; // logged out meanwhile, or the server is away: try again later
  }
  waiting.timer = setTimeout(() => { if (!document.hidden) askAwaiting(); }, next * 1000);
}

function stopAwaiting() {
  clearTimeout(waiting.timer);
  waiting.asked++;
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && document.getElementById("your-move")) askAwaiting();
});

function loggedIn(account) {
  const out = el("button", { type: "button", id: "account-logout" }, "Log out");
  out.addEventListener("click", async () => accountChanged(await api.logOut()));
  const moves = el("details", { id: "your-move", hidden: true }, el("summary", {}, "Your move"),
    el("ul", { "aria-label": "correspondence games awaiting your move" }));
  box.replaceChildren(el("a", { href: account.profile, id: "account-name" }, account.name), " ", moves, " ", out);
  askAwaiting();
}

function loggedOut() {
  const name = el("input", { id: "account-user", autocomplete: "username", maxlength: "20", required: true,
    "aria-label": "account name" });
  const password = el("input", { id: "account-password", type: "password", autocomplete: "current-password",
    maxlength: "200", required: true, "aria-label": "password" });
  const said = el("span", { id: "account-error", role: "alert" });
  const button = (action, text) => el("button", { type: "submit", id: `account-${action}`, value: action }, text);
  const form = el("form", { id: "account-form", hidden: true }, name, " ", password, " ",
    button("login", "Log in"), " ", button("signup", "Sign up"), " ", said);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const action = e.submitter ? e.submitter.value : "login";
    said.textContent = "";
    try {
      accountChanged(await (action === "signup" ? api.signUp : api.logIn)(name.value, password.value, heldGames()));
    } catch (err) {
      said.textContent = err.message;
    }
  });
  const open = el("button", { type: "button", id: "account-open" }, "Log in / sign up");
  open.addEventListener("click", () => {
    form.hidden = !form.hidden;
    if (!form.hidden) name.focus();
  });
  box.replaceChildren(open, form);
}

async function draw() {
  const { account } = await currentAccount();
  stopAwaiting();
  if (account) loggedIn(account);
  else loggedOut();
}

if (box) {
  draw();
  window.addEventListener("morphchess:account", draw);
}
