// The catalogue search beside the variant chooser: words (a name, 10x8, drops, morphs, hoppers...)
// sent to GET /api/variants?search=...; each game found is a button that selects it in #variant.
// Everything from the server is put on the page as text (textContent), never as HTML.

const DELAY_MS = 250;
const MAX_QUERY = 200;
const SUGGESTED = "drops, 10x8, xiangqi, morphs…";

function found(variant) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "catalog-hit";
  button.dataset.key = variant.key;
  const size = variant.files && variant.ranks ? ` ${variant.files}x${variant.ranks}` : "";
  const features = (variant.features || []).join(", ");
  button.textContent = `${variant.title || variant.key}${size}${features ? ` (${features})` : ""}`;
  button.title = [variant.author ? `by ${variant.author}` : "", variant.description || ""].filter(Boolean).join(": ");
  button.addEventListener("click", () => choose(variant));
  return button;
}

function choose(variant) {
  const select = document.getElementById("variant");
  if (!select) return;
  if (![...select.options].some((o) => o.value === variant.key)) select.add(new Option(variant.title || variant.key, variant.key));
  select.value = variant.key;
  select.dispatchEvent(new Event("change"));
}

async function search(words, list, status) {
  const response = await fetch(`/api/variants?search=${encodeURIComponent(words.slice(0, MAX_QUERY))}`);
  if (!response.ok) {
    status.textContent = `search failed (${response.status})`;
    return;
  }
  const variants = await response.json();
  list.replaceChildren(...variants.map(found));
  status.textContent = words.trim() ? `${variants.length} game${variants.length === 1 ? "" : "s"} found` : "";
  if (!variants.length && words.trim()) status.textContent += `: ${(await missing(words)).join("; ")}`;
}

// Why nothing was found: per word, that the library lacks it (and whether Fairy-Stockfish plays it).
async function missing(words) {
  const response = await fetch(`/api/library/missing?search=${encodeURIComponent(words.slice(0, MAX_QUERY))}`);
  return response.ok ? (await response.json()).notes : [];
}

function mount() {
  const select = document.getElementById("variant");
  if (!select || document.getElementById("catalog-search")) return;
  const box = document.createElement("div");
  box.id = "catalog";
  const label = document.createElement("label");
  label.textContent = "Find a game ";
  const input = document.createElement("input");
  input.id = "catalog-search";
  input.type = "search";
  input.maxLength = MAX_QUERY;
  input.placeholder = SUGGESTED; // each finds a game (tested)
  input.autocomplete = "off";
  label.append(input);
  const status = document.createElement("div");
  status.id = "catalog-status";
  status.setAttribute("role", "status");
  const list = document.createElement("div");
  list.id = "catalog-results";
  box.append(label, status, list);
  (select.closest("label") || select).after(box);
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    if (!input.value.trim()) {
      list.replaceChildren();
      status.textContent = "";
      return;
    }
    timer = setTimeout(() => search(input.value, list, status).catch(() => { status.textContent = "search failed"; }),
                       DELAY_MS);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mount);
else mount();
