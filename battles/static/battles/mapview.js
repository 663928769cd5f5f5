/* The battle maps' view, for the play page (#play-map) and the report (#map): labels placed
   apart, and zoom and pan for fingers (issue 24 §6). No library: the SVG's viewBox is changed.

   AngelsMap.unclutter(labels): each label (an SVG <text> with x and y) in turn takes the first
   of its candidate places (the usual one, below its marker, further up or down, then the same
   on the marker's left) where its box covers no label already placed, so no two overlap.

   AngelsMap.zoom(svg): "+", "−" and "Fit" buttons before the map, a pinch of two fingers or
   Ctrl + wheel (a trackpad's pinch) zooms about that point; a drag pans once zoomed. A drag
   is never a tap: the click after it is dropped, so a pan never moves an aircraft. The zoom
   is kept when the play page swaps a new board in. svg.angelsShow(x, y, w, h, s) shows a box
   of the map at zoom s (play_picks.js), svg.angelsZoom() the zoom now. */
(function (root) {
  "use strict";
  const SHIFTS = [0, 30, -18, 48, -36, 66, -54, 84];  // px down from the usual place
  const MAX = 8, STEP = 1.5, DRAG = 6;
  const kept = {};  // the zoom of each map, by its id, across board swaps

  function overlaps(r, q) {
    return r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom;
  }
  function unclutter(labels) {
    const placed = [];
    for (const label of labels) {
      if (!label.dataset.x) { label.dataset.x = label.getAttribute("x"); label.dataset.y = label.getAttribute("y"); }
      const x = Number(label.dataset.x), y = Number(label.dataset.y);
      let box = null;
      search:
      for (const side of [0, 1]) {  // right of the marker, then left of it
        label.setAttribute("x", side ? x - 18 : x);
        label.setAttribute("text-anchor", side ? "end" : "start");
        for (const dy of SHIFTS) {
          label.setAttribute("y", y + dy);
          box = label.getBoundingClientRect();
          if (!placed.some(q => overlaps(box, q))) break search;
        }
      }
      placed.push(label.getBoundingClientRect());
    }
  }

  function button(text, label) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.className = "map-zoom-button";
    Object.assign(b.style, {minWidth: "44px", minHeight: "44px", fontSize: "1.2rem", marginRight: "4px"});
    return b;
  }

  function zoom(svg) {
    if (!svg || svg.dataset.zoomable) return;
    svg.dataset.zoomable = "1";
    const base = svg.viewBox.baseVal;
    const W = base.width, H = base.height;
    const st = kept[svg.id] || (kept[svg.id] = {s: 1, x: 0, y: 0});
    function apply() {
      const w = W / st.s, h = H / st.s;
      st.x = Math.min(Math.max(st.x, 0), W - w);
      st.y = Math.min(Math.max(st.y, 0), H - h);
      svg.setAttribute("viewBox", `${st.x.toFixed(1)} ${st.y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
      svg.style.touchAction = st.s > 1 ? "none" : "pan-x pan-y";  // zoomed: a drag pans the map
      svg.dataset.zoom = st.s.toFixed(2);
    }
    function at(clientX, clientY) {  // a point on screen, in the map's units
      const r = svg.getBoundingClientRect();
      return [st.x + (clientX - r.left) / r.width * (W / st.s), st.y + (clientY - r.top) / r.height * (H / st.s)];
    }
    function zoomBy(factor, px, py) {
      const s = Math.min(Math.max(st.s * factor, 1), MAX);
      if (px === undefined) { px = st.x + W / st.s / 2; py = st.y + H / st.s / 2; }
      st.x = px - (px - st.x) * st.s / s;
      st.y = py - (py - st.y) * st.s / s;
      st.s = s;
      apply();
    }
    const bar = document.createElement("div");
    bar.className = "map-zoom";
    const plus = button("+", "Zoom in"), minus = button("−", "Zoom out"), fit = button("Fit", "Show the whole map");
    plus.addEventListener("click", () => zoomBy(STEP));
    minus.addEventListener("click", () => zoomBy(1 / STEP));
    fit.addEventListener("click", () => { st.s = 1; apply(); });
    bar.append(plus, minus, fit);
    // show the box (x, y, w, h in the map's units) at zoom s, centred (play_picks.js: the
    // tabs of the decisions picked on the map, on a phone); the zoom the map is at now
    svg.angelsShow = (x, y, w, h, s) => {
      st.s = Math.min(Math.max(s, 1), MAX);
      st.x = x + w / 2 - W / st.s / 2;
      st.y = y + h / 2 - H / st.s / 2;
      apply();
    };
    svg.angelsZoom = () => st.s;
    svg.parentNode.insertBefore(bar, svg);

    svg.addEventListener("wheel", ev => {
      if (!ev.ctrlKey) return;  // a plain wheel scrolls the page
      ev.preventDefault();
      const [px, py] = at(ev.clientX, ev.clientY);
      zoomBy(ev.deltaY < 0 ? 1.2 : 1 / 1.2, px, py);
    }, {passive: false});

    const down = new Map();  // the pointers on the map: where each is now
    let drag = null, pinch = null, dragged = false;
    svg.addEventListener("pointerdown", ev => {
      down.set(ev.pointerId, [ev.clientX, ev.clientY]);
      dragged = false;
      if (down.size === 1) drag = {x: ev.clientX, y: ev.clientY, vx: st.x, vy: st.y, moving: false};
      if (down.size === 2) {
        const [a, b] = [...down.values()];
        pinch = {d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1, s: st.s};
        drag = null;
      }
    });
    svg.addEventListener("pointermove", ev => {
      if (!down.has(ev.pointerId)) return;
      down.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (pinch && down.size === 2) {
        const [a, b] = [...down.values()];
        const [px, py] = at((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        zoomBy(pinch.s * Math.hypot(a[0] - b[0], a[1] - b[1]) / pinch.d / st.s, px, py);
        dragged = true;
      } else if (drag && st.s > 1) {
        const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
        if (!drag.moving && Math.hypot(dx, dy) < DRAG) return;
        if (!drag.moving) { drag.moving = true; svg.setPointerCapture(ev.pointerId); }
        const r = svg.getBoundingClientRect();
        st.x = drag.vx - dx / r.width * (W / st.s);
        st.y = drag.vy - dy / r.height * (H / st.s);
        apply();
        dragged = true;
      }
    });
    function up(ev) {
      down.delete(ev.pointerId);
      if (down.size < 2) pinch = null;
      if (!down.size) drag = null;
    }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    // the click that ends a drag or a pinch is not a tap on a hex
    svg.addEventListener("click", ev => {
      if (dragged) { ev.stopPropagation(); ev.preventDefault(); dragged = false; }
    }, true);
    apply();
  }

  root.AngelsMap = {unclutter, zoom};

  // the play page's map: its labels apart and its zoom, again on each board swapped in
  function playMap() {
    const svg = document.getElementById("play-map");
    if (!svg) return;
    zoom(svg);
    unclutter([...svg.querySelectorAll("#plane-labels .plane-label")]);
  }
  const board = document.getElementById("board");
  if (board && document.getElementById("play-map")) {
    new MutationObserver(playMap).observe(board, {childList: true});
    playMap();
  }
})(window);
