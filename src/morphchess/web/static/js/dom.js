// Building the page from data: every string goes in as text or as an attribute's value, never as
// markup, so that a name from a definition, a record or a player cannot add elements or run script.

const SVG = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (/^on/i.test(name)) throw new Error(`${name}: set handlers with addEventListener`);
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false)); // strings: text
  return node;
}

// An HTML element: el("button", {type: "button", "data-x": 1}, "text", child, ...).
export function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

// An SVG element (the board's arrows and circles).
export function svgEl(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

// A drawing the server made (a piece's SVG text) as an image: an image document runs no script and
// adds nothing to the page, whatever its text holds.
export function svgImage(svgText, className = "piece") {
  const img = el("img", { class: className, alt: "", draggable: "false" });
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  return img;
}
