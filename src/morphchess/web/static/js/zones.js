// The zones a definition names (promotion zones, a palace, the own half), outlined on the board when
// chosen in the Zones list.

const $ = (id) => document.getElementById(id);

export function drawZoneChoices(variant, board) {
  const zones = variant.zones || [];
  const select = $("zones");
  $("zones-label").hidden = zones.length === 0;
  select.replaceChildren(new Option("none", ""), ...zones.map((z, i) => new Option(z.name, String(i))));
  select.onchange = () => board.showZone(select.value === "" ? [] : zones[+select.value].squares);
}
