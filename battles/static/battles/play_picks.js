// Decisions picked on the map (issue 26; rules.tactical.BoardPick, battles/_play_board.html).
// Each tab in #pick-layer carries its decision's JSON exactly as the choices list posts it;
// a click (or Enter/Space on a focused tab) presses that choice's own button, so the post,
// its version and its refusals are the plain form's. Listening on the document, it keeps
// working when the poll swaps the board in.
(function () {
  if (window.playPicksReady) return;
  window.playPicksReady = true;
  function choose(pick) {
    const wanted = pick.getAttribute("data-action");
    const inputs = document.querySelectorAll('#choices input[name="action"]');
    for (const input of inputs) {
      if (input.value === wanted) {
        const button = input.form.querySelector("button[type=submit]");
        if (button) { button.click(); return true; }
      }
    }
    return false;
  }
  document.addEventListener("click", function (event) {
    const pick = event.target.closest && event.target.closest("#pick-layer .pick");
    if (pick && choose(pick)) event.preventDefault();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const pick = event.target.closest && event.target.closest("#pick-layer .pick");
    if (pick && choose(pick)) event.preventDefault();
  });
})();
