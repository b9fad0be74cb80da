// The panels beside the board.  On a narrow screen (a phone) tabs show one group at a time below the
// board and its controls (Moves, Talk, Analysis while it is open, Game, More); on a wide one every
// panel shows and the tabs are not drawn.  Opening the analysis board selects its tab.  The Talk tab
// counts the messages that came while it was not shown.

const $ = (id) => document.getElementById(id);
let current = "moves";
let unread = 0;

function drawUnread() {
  $("tab-talk").textContent = unread ? `Talk (${unread})` : "Talk";
  $("tab-talk").setAttribute("aria-label", unread ? `Talk, ${unread} new message${unread === 1 ? "" : "s"}` : "Talk");
}

function countMessages(changes) {
  if (!$("talk-messages").children.length) unread = 0; // another game's talk
  else if (current !== "talk") unread += changes.reduce((n, c) => n + c.addedNodes.length, 0);
  drawUnread();
}

export function showTab(name) {
  current = name;
  if (name === "talk") {
    unread = 0;
    drawUnread();
  }
  for (const tab of document.querySelectorAll("#panel-tabs [role='tab']")) {
    const selected = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  for (const group of document.querySelectorAll("#panel > [data-tab]")) {
    group.classList.toggle("tab-shown", group.dataset.tab === name);
  }
}

// Left and Right move among the tabs, as in any tab list.
function tabKeys(e) {
  const tabs = [...document.querySelectorAll("#panel-tabs [role='tab']:not([hidden])")];
  const at = tabs.findIndex((t) => t.dataset.tab === current);
  const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
  if (!step || at < 0) return;
  e.preventDefault();
  e.stopPropagation(); // not a step through the game
  const next = tabs[(at + step + tabs.length) % tabs.length];
  showTab(next.dataset.tab);
  next.focus();
}

export function wirePanels() {
  $("panel-tabs").onclick = (e) => {
    const tab = e.target.closest("[role='tab']");
    if (tab) showTab(tab.dataset.tab);
  };
  $("panel-tabs").addEventListener("keydown", tabKeys);
  new MutationObserver(() => {
    const open = !$("analysis").hidden;
    $("tab-analysis").hidden = !open;
    if (open) showTab("analysis");
    else if (current === "analysis") showTab("moves");
  }).observe($("analysis"), { attributes: true, attributeFilter: ["hidden"] });
  new MutationObserver(countMessages).observe($("talk-messages"), { childList: true });
  showTab(current);
}
