// The tournaments page (/tournaments): the arenas coming, running and finished, and, to an account, the
// form that makes one.  Every string from the server goes in as text.

import { api, currentAccount } from "./api.js";
import { el } from "./dom.js";
import { describe } from "./tournamentfacts.js";

const $ = (id) => document.getElementById(id);

function item(t) {
  return el("li", { "data-tournament": t.id }, el("a", { href: t.link }, t.name), " ", describe(t),
    t.by ? ` · by ${t.by}` : "");
}

function list(id, tournaments, none) {
  $(id).replaceChildren(...(tournaments.length ? tournaments.map(item) : [el("li", {}, none)]));
}

async function show() {
  const { tournaments, finished } = await api.tournaments();
  list("tournaments-going", tournaments, "None yet: make one.");
  list("tournaments-over", finished, "None yet.");
}

async function wireForm() {
  const { account } = await currentAccount();
  $("tournaments-new").hidden = !account;
  $("tournaments-login").hidden = Boolean(account);
}

const swiss = () => $("tournament-kind").value === "swiss";

$("tournament-kind").addEventListener("change", () => {
  $("tournament-rounds-label").hidden = !swiss();
  $("tournament-minutes-text").textContent = swiss() ? "Minutes at most" : "Minutes";
});

$("tournaments-new").addEventListener("submit", async (e) => {
  e.preventDefault();
  const number = (id) => Number($(id).value);
  try {
    const made = await api.newTournament({ name: $("tournament-name").value, variant: $("tournament-variant").value,
      time_control: $("tournament-clock").value, minutes: number("tournament-minutes"),
      starts_in: number("tournament-starts"), max_players: number("tournament-players"),
      kind: $("tournament-kind").value, rounds: swiss() ? number("tournament-rounds") : null });
    location.href = made.link;
  } catch (err) {
    $("tournaments-said").textContent = err.message;
  }
});

api.variants().then((variants) => $("tournament-variants").replaceChildren(
  ...variants.map((v) => el("option", { value: v.key }, v.title))), () => {});
window.addEventListener("morphchess:account", wireForm);
wireForm();
show().catch((e) => { $("tournaments-said").textContent = e.message; });
