// The chooser of promotions and Polymorph transformations: a small dialog beside the square, closed
// by Escape, a press outside it or Cancel, keeping the keyboard focus inside while it is open.
//
// An option is taken only by a press that starts on it (or by the keyboard): the tap or click that
// opened the chooser cannot also choose, wherever its release lands.

import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
const GAP = 6; // px between the square and the chooser

function place(box, anchor) {
  const r = anchor.getBoundingClientRect();
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  let left = r.right + GAP;
  let top = r.top + r.height / 2 - h / 2;
  if (left + w > vw) left = r.left - GAP - w; // no room on the right: on the left
  if (left < 0) { // no room beside it: above or below the square
    left = r.left + r.width / 2 - w / 2;
    top = r.top - GAP - h >= 0 ? r.top - GAP - h : r.bottom + GAP;
  }
  box.style.left = `${Math.max(0, Math.min(left, vw - w))}px`;
  box.style.top = `${Math.max(0, Math.min(top, vh - h))}px`;
}

// options: [{label, image, value, id}] (image: an element or null); resolves to the chosen value, or null when cancelled.
export function choose(title, options, anchor) {
  const layer = $("chooser");
  const box = layer.querySelector(".chooser-box");
  const list = $("chooser-options");
  const before = document.activeElement;
  $("chooser-title").textContent = title;
  list.replaceChildren(...options.map((o, i) => el("button", {
    type: "button", "data-index": i, "data-uci": o.id, "aria-label": o.label,
  }, el("span", { class: "img", "aria-hidden": "true" }, o.image), o.label)));
  layer.hidden = false;
  place(box, anchor);
  const buttons = [...box.querySelectorAll("button")];
  buttons[0].focus();

  return new Promise((resolve) => {
    let pressed = null;
    const finish = (value) => {
      layer.hidden = true;
      layer.onpointerdown = layer.onclick = layer.onkeydown = null;
      if (before && before.focus) before.focus();
      resolve(value);
    };
    layer.onpointerdown = (e) => {
      pressed = e.target.closest("button");
      if (!box.contains(e.target)) {
        e.preventDefault();
        finish(null);
      }
    };
    layer.onclick = (e) => {
      const button = e.target.closest("button");
      if (!button || (e.detail !== 0 && button !== pressed)) return; // a release without its press
      if (button.id === "chooser-cancel") finish(null);
      else finish(options[Number(button.dataset.index)].value);
    };
    layer.onkeydown = (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        finish(null);
      } else if (e.key === "Tab") { // the focus goes round the chooser's buttons
        e.preventDefault();
        const i = buttons.indexOf(document.activeElement);
        buttons[(i + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length].focus();
      }
    };
  });
}
