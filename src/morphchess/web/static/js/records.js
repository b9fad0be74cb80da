// Records and definitions: export the game as PGN or a Game Courier log, import one as a new game,
// and play a pasted Interactive Diagram definition.  Errors appear under their text box.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

// game() the game shown; importSpec() the variant, array and level for an import; open(created) shows
// a game just made; play(variant) starts a game of a pasted variant; loading(what, work) shows that
// work is under way.
export function wireRecords({ game, importSpec, open, play, loading }) {
  const recordError = $("record-error");
  const definitionError = $("definition-error");
  const definitionNote = $("definition-note");

  const run = (box, work) => async () => {
    box.textContent = "";
    try {
      await work();
    } catch (e) {
      box.textContent = e.message;
    }
  };

  const exportAs = (format) => run(recordError, async () => {
    $("record-text").value = await api.record(game().id, format);
  });
  $("export-pgn").onclick = exportAs("pgn");
  $("export-gc").onclick = exportAs("gc");
  $("import").onclick = run(recordError, async () => {
    await open(await api.importRecord({ text: $("record-text").value, white: "human", black: "human", ...importSpec() }));
  });
  $("load-definition").onclick = run(definitionError, () => loading("the definition", async () => {
    definitionNote.textContent = "";
    const variant = await api.define($("definition").value);
    await play(variant);
    if (variant.warnings.length) { // a note, not an error: the game is played, with these differences
      definitionNote.textContent = "Note: the game is played, but not all of the definition's page: "
        + `${variant.warnings.join("; ")}.`;
    }
  }));
}

// Where a game's record downloads as a file (format: pgn or gc).
export function recordUrl(id, format) {
  return `/api/games/${encodeURIComponent(id)}/record?format=${format}&download=1`;
}

// The download links of the game shown.
export function drawDownloads(game) {
  for (const format of ["pgn", "gc"]) $(`download-${format}`).href = recordUrl(game.id, format);
}
