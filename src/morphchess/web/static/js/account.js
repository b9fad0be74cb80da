// The account control in the page's header: sign up or log in (the seats this browser holds go with
// the request, and the server claims those their tokens really hold), the account's name linking to
// its profile, and log out.  Accounts are optional: the page plays the same without one.

import { accountChanged, api, currentAccount } from "./api.js";
import { el } from "./dom.js";
import { heldGames } from "./seats.js";

const box = document.getElementById("account");

function loggedIn(account) {
  const out = el("button", { type: "button", id: "account-logout" }, "Log out");
  out.addEventListener("click", async () => accountChanged(await api.logOut()));
  box.replaceChildren(el("a", { href: account.profile, id: "account-name" }, account.name), " ", out);
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
  if (account) loggedIn(account);
  else loggedOut();
}

if (box) {
  draw();
  window.addEventListener("morphchess:account", draw);
}
