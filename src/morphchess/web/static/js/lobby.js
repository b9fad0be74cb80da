// The lobby page: accepting a seek.  The server hands out the seat's token; the page then goes to the
// seat link, which keeps the token in its fragment.

document.addEventListener("click", async (e) => {
  const button = e.target.closest("button.accept");
  if (!button) return;
  const name = document.getElementById("name").value || null;
  const response = await fetch(`/api/games/${encodeURIComponent(button.dataset.game)}/accept`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }),
  });
  const answer = await response.json().catch(() => ({}));
  if (response.ok) location.href = answer.seat.link;
  else document.getElementById("lobby-error").textContent = (answer.error && answer.error.message)
    || `the server answered ${response.status}`;
});
