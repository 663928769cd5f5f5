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

  // On a phone the whole map is drawn small, and the tabs' words with it: when new tabs
  // come (another unit to mark) and the map is at its whole view, it is zoomed to them, so
  // their words are about READABLE px high and each is a tap apart (mapview.js draws the
  // zoom; "Fit" shows the whole map again). Where the words are SMALL px or more, nothing.
  const SMALL = 8, READABLE = 13, SPARE = 24;  // px on screen: too small, zoomed to; the map's units kept around the tabs
  let shown = null;  // the tabs zoomed to last: their decisions, and the zoom they got
  function focusTabs() {
    const svg = document.getElementById("play-map");
    const layer = svg && document.getElementById("pick-layer");
    if (!svg || !svg.angelsShow) return;
    const zoom = svg.angelsZoom();
    if (!layer || !layer.querySelector(".pick")) {
      if (shown && Math.abs(zoom - shown.zoom) < 0.01) svg.angelsShow(0, 0, 0, 0, 1);  // ours: back to the whole map
      shown = null;
      return;
    }
    const key = [...layer.querySelectorAll(".pick")].map(p => p.getAttribute("data-action")).join("|");
    if ((shown && shown.key === key) || (zoom > 1.01 && !(shown && Math.abs(zoom - shown.zoom) < 0.01))) return;
    const text = layer.querySelector(".pick-text");
    const size = text ? parseFloat(getComputedStyle(text).fontSize) : 9;
    const whole = svg.getBoundingClientRect().width / (svg.viewBox.baseVal.width * zoom);  // px a map unit, whole view
    shown = {key: key, zoom: zoom};
    if (size * whole >= SMALL) return;  // read as they are (a desk's screen)
    const wanted = READABLE / (size * whole);
    const under = document.getElementById("pick-under");
    const box = layer.getBBox();
    const all = under ? under.getBBox() : box;
    const x = Math.min(box.x, all.x) - SPARE, y = Math.min(box.y, all.y) - SPARE;
    const w = Math.max(box.x + box.width, all.x + all.width) + SPARE - x;
    const h = Math.max(box.y + box.height, all.y + all.height) + SPARE - y;
    const view = svg.viewBox.baseVal;  // what the map shows now, at zoom ``zoom``
    const fits = Math.min(view.width * zoom / w, view.height * zoom / h);  // the most zoom showing them all
    svg.angelsShow(x, y, w, h, Math.min(wanted, Math.max(fits, 1)));
    shown.zoom = svg.angelsZoom();
  }
  const board = document.getElementById("board");
  if (board) new MutationObserver(focusTabs).observe(board, {childList: true});
  focusTabs();
})();
