// Whose turn it is, outside the page: the tab's title says "your move" in a game with an opponent,
// and in a correspondence game a notification says it when the page is not in view (where the
// browser allows notifications: the "Notify me" button asks).

const $ = (id) => document.getElementById(id);

function yourMove(game, you) {
  return game.status === "playing" && game.mode !== "local" && you.includes(game.turn)
    && game.players[game.turn] === "human" && !game.thinking;
}

function correspondence(game) {
  return Boolean(game.time_control && game.time_control.per_move_ms);
}

// The title and the notify button for the game shown; a notification if our move has just come.
export function drawTurn(old, game, you) {
  const mine = yourMove(game, you);
  document.title = `${mine ? "(your move) " : ""}${game.title || game.name} · morphchess`;
  const ask = $("notify");
  ask.hidden = !(correspondence(game) && you.length && "Notification" in window
    && Notification.permission === "default");
  const arrived = old && old.id === game.id && game.ply > old.ply && !yourMove(old, you) && mine;
  if (arrived && correspondence(game) && document.visibilityState !== "visible"
      && "Notification" in window && Notification.permission === "granted") {
    const last = game.history[game.history.length - 1];
    new Notification("morphchess: your move", { body: `${game.title}: your opponent played ${last.san}`, tag: game.id });
  }
}

export function wireTurn() {
  $("notify").onclick = async () => {
    await Notification.requestPermission();
    $("notify").hidden = Notification.permission !== "default";
  };
}
