// The board's looks, kept in the browser: its colours (brown, green, blue, grey) and the piece set
// (the drawn pieces, or letters in discs as in printed fairy diagrams: White's upper case).

const $ = (id) => document.getElementById(id);
const KEYS = { theme: "morphchess.theme", pieces: "morphchess.pieces" };

function apply(what, value) {
  document.documentElement.dataset[what] = value;
}

export function wireLooks() {
  for (const [what, id] of [["theme", "theme"], ["pieces", "piece-set"]]) {
    const select = $(id);
    const kept = localStorage.getItem(KEYS[what]);
    if (kept && [...select.options].some((o) => o.value === kept)) select.value = kept;
    apply(what, select.value);
    select.onchange = () => {
      localStorage.setItem(KEYS[what], select.value);
      apply(what, select.value);
    };
  }
}
