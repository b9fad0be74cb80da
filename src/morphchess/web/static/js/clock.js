// The players' clocks: the server's times, counted down on the page for the side whose time runs.

import { el } from "./dom.js";

function format(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class Clocks {
  constructor(element) {
    this.el = element;
    this.clock = null;
    this.received = 0;
    setInterval(() => this.draw(), 250);
  }

  set(clock) {
    this.clock = clock;
    this.received = performance.now();
    this.draw();
  }

  draw() {
    const c = this.clock;
    this.el.hidden = !c;
    if (!c) return;
    const spent = performance.now() - this.received;
    this.el.replaceChildren(...["white", "black"].map((side) => {
      const ms = c[`${side}_ms`] - (c.running === side ? spent : 0);
      const cls = `clock${c.running === side ? " running" : ""}${ms < 20000 ? " low" : ""}`;
      return el("span", { class: cls, "data-side": side }, `${side === "white" ? "White" : "Black"} ${format(ms)}`);
    }));
  }
}
