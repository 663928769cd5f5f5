// Movement by clicking on the play page (templates/battles/_play_moves_script.html); the hex
// size and the turn URL come from the board's data- attributes.
(function () {
  const board = document.getElementById("board");
  const hexes = AngelsHex.grid(Number(board.dataset.hexSize));  // the hex maths, shared with the report
  const S = hexes.size, center = hexes.center, corners = hexes.corners;
  const turnUrl = board.dataset.turnUrl;
  const FACING = ["north", "north-east", "south-east", "south", "south-west", "north-west"];
  const EDGE = {north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0]};  // off the map
  const RETREAT = "an aircraft that leaves the map retreats, unless by its scenario's exit edge";
  const NS = "http://www.w3.org/2000/svg";
  let plane = null;  // the aircraft chosen, kept when the board is swapped in again
  let asked = 0;     // answers to an older question are dropped

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svgEl(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
    return e;
  }
  function pct(x) { return Math.round(x * 100) + "%"; }
  function where(p) {
    return p.hex ? `hex ${p.hex[0]},${p.hex[1]}, facing ${FACING[p.facing]}, altitude ${p.altitude}` : "off the map";
  }
  function layer(name) {
    // under the aircraft markers, so that a tap on a marker is the aircraft's
    const svg = document.getElementById("play-map");
    let g = svg.querySelector("#" + name);
    if (!g) { g = svgEl("g", {id: name}); svg.insertBefore(g, svg.querySelector("#planes")); }
    g.replaceChildren();
    return g;
  }
  function beyond(hex, edge, by) {  // a point past the edge hex's centre, towards its edge
    const [x, y] = center(hex[0], hex[1]), [dx, dy] = EDGE[edge] || [0, 0];
    return [x + dx * S * by, y + dy * S * by];
  }
  function pressable(node, label, act) {  // a tap, a click, or Enter / Space after Tab
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    node.addEventListener("click", act);
    node.addEventListener("keydown", ev => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); act(); }
    });
  }

  async function ask(query) {
    const box = document.getElementById("move-pick");
    const n = ++asked;
    try {
      const res = await fetch(`${turnUrl}?since=999999&${query}`, {credentials: "same-origin"});
      const turn = await res.json();
      if (n !== asked || !res.ok || String(turn.version) !== box.dataset.version) return null;
      return turn.move_choices;
    } catch (e) { return null; }
  }

  async function choose(id) {
    plane = id;
    document.querySelectorAll("#move-pick .move-plane").forEach(b =>
      b.setAttribute("aria-pressed", String(Number(b.dataset.plane) === id)));
    document.querySelectorAll("#planes .plane.movable").forEach(m =>
      m.setAttribute("aria-pressed", String(Number(m.dataset.plane) === id)));
    document.getElementById("move-paths").replaceChildren();
    document.getElementById("move-confirm").hidden = true;
    layer("move-layer");  // the hexes in reach, then the path drawn over them
    layer("move-path");
    const hint = document.getElementById("move-hint");
    hint.textContent = "Finding the hexes in reach…";
    const data = await ask(`moves=${id}`);
    if (!data) return;
    const g = layer("move-layer");
    data.reach.forEach(r => {
      const poly = svgEl("polygon", {
        points: corners(r.hex[0], r.hex[1]), class: "reach", "data-hex": r.hex.join(","),
        fill: r.chance >= 1 ? "#f7d24a" : "#fbe9a6", "fill-opacity": "0.55",
        stroke: "#b88a00", "stroke-width": "1",
      });
      const title = svgEl("title", {});
      title.textContent = `hex ${r.hex[0]},${r.hex[1]}: ${r.ends} way(s) to end here, the surest ${pct(r.chance)}`;
      poly.appendChild(title);
      pressable(poly, title.textContent, () => pick(data, r.hex));
      g.appendChild(poly);
    });
    const inReach = new Set(data.reach.map(r => r.hex.join(",")));
    // moves that leave the map: an "exit" marker on the hex left from, an arrow to its edge
    (data.exits || []).forEach(x => {
      const mark = svgEl("g", {class: "exit", "data-hex": x.hex.join(","), "data-edge": x.edge});
      const text = `exit: leave the map by the ${x.edge} edge from hex ${x.hex[0]},${x.hex[1]}, ${x.ways} way(s), the surest ${pct(x.chance)} (${RETREAT})`;
      const title = svgEl("title", {});
      title.textContent = text;
      // the word beside the arrow: above it for the east and west edges, behind it for the others
      const [dx, dy] = EDGE[x.edge] || [0, 0];
      const [cx, cy] = center(x.hex[0], x.hex[1]), [tx, ty] = beyond(x.hex, x.edge, 0.95);
      const [ax, ay] = dx ? [cx - dx * 6, cy + 4] : [cx, cy];  // the arrow's tail
      const tip = [tx, dx ? ty + 4 : ty];
      mark.append(
        title,
        // an edge hex that is also in reach: its middle stays the hex's (the ends there), the
        // arrow and the word are the way off
        svgEl("polygon", {class: "edge-hex", points: corners(x.hex[0], x.hex[1]), fill: "#e53935", "fill-opacity": "0.3", stroke: "#b71c1c", "stroke-width": "2", "stroke-dasharray": "4 2",
          "pointer-events": inReach.has(x.hex.join(",")) ? "none" : "all"}),
        svgEl("line", {x1: ax, y1: ay, x2: tip[0] - dx * 5, y2: tip[1] - dy * 5, stroke: "#b71c1c", "stroke-width": "2.5"}),
        svgEl("polygon", {points: `${tip[0]},${tip[1]} ${tip[0] - dx * 7 - dy * 5},${tip[1] - dy * 7 + dx * 5} ${tip[0] - dx * 7 + dy * 5},${tip[1] - dy * 7 - dx * 5}`, fill: "#b71c1c"}),
      );
      const word = svgEl("text", {x: cx - dx * 2, y: dx ? cy - 3 : cy - dy * 6 + 3, "font-size": "8", "font-weight": "bold", "text-anchor": "middle", fill: "#7f0000"});
      word.textContent = "exit";
      mark.appendChild(word);
      pressable(mark, text, () => pick(data, x.hex, true));
      g.appendChild(mark);
    });
    const [sx, sy] = center(data.start.hex[0], data.start.hex[1]);
    g.appendChild(svgEl("circle", {cx: sx, cy: sy, r: S * 0.8, fill: "none", stroke: "#b88a00", "stroke-width": "2", "stroke-dasharray": "3 2"}));
    const exits = (data.exits || []).length;
    hint.textContent = `${data.name}: ${data.reach.length} hexes in reach, highlighted on the map (the darker ones without a maneuver check). Tap one to see the ways there.` +
      (exits ? ` Moves that leave the map are marked "exit" on ${exits} edge hex(es): tap one to see the ways off (${RETREAT}).` : "") +
      (movable().length > 1 ? " Tap another of your aircraft to move it instead." : "");
  }

  async function pick(summary, hex, exitFirst) {
    document.querySelectorAll("#move-layer .reach, #move-layer .exit").forEach(p =>
      p.classList.toggle("chosen", p.dataset.hex === hex.join(",")));
    const data = await ask(`moves=${summary.plane}&to=${hex[0]},${hex[1]}`);
    if (!data) return;
    const list = document.getElementById("move-paths");
    const offs = data.exit_paths || [];
    // a corner hex is left by two edges: name each one
    const edges = [...new Set(offs.map(p => p.edge))].join(" or the ");
    list.replaceChildren(el("p", {}, `To hex ${hex[0]},${hex[1]}: ${data.ends.length} way(s) to end there` +
      (offs.length ? `, ${offs.length} way(s) off the map by the ${edges} edge.` : ".")));
    let first = null;
    if (offs.length) {
      const box = el("div", {class: "move-end move-exit"});
      box.appendChild(el("h3", {}, `Leave the map by the ${edges} edge`));
      box.appendChild(el("p", {class: "muted"}, `The aircraft is then out of the battle: ${RETREAT}.`));
      offs.forEach((path, j) => {
        const label = el("label", {});
        const radio = el("input", {type: "radio", name: "move-path", value: `exit:${j}`});
        radio.addEventListener("change", () => show(data, path, {edge: path.edge}));
        label.appendChild(radio);
        label.appendChild(document.createTextNode(` speed ${path.speed}: ${path.label}, off the map by the ${path.edge} edge`));
        const odds = path.maneuvers.map(m => `${m.label} (hex ${m.step}): ${pct(m.chance)} to succeed`);
        const why = odds.length
          ? `${odds.join("; ")}. Leaves ${pct(path.chance)} of the time; if it fails: ${where(path.if_failed)}.`
          : "No maneuver check: it leaves the map for sure.";
        label.appendChild(el("div", {class: "odds"}, why));
        box.appendChild(label);
        if (exitFirst && !first) first = [radio, path, {edge: path.edge}];
      });
      list.appendChild(box);
    }
    // the surest ends first; in each, the likeliest way, the others folded away
    const ends = [...data.ends].sort((a, b) => b.paths[0].chance - a.paths[0].chance);
    ends.forEach((end, i) => {
      const box = el("div", {class: "move-end"});
      box.appendChild(el("h3", {}, `Ends facing ${FACING[end.facing]} at altitude ${end.altitude}`));
      let more = box;
      end.paths.forEach((path, j) => {
        if (j === 1) {
          more = el("details", {});
          more.appendChild(el("summary", {}, `${end.paths.length - 1 + end.more_paths} other way(s)`));
          box.appendChild(more);
        }
        const label = el("label", {});
        const radio = el("input", {type: "radio", name: "move-path", value: `${i}:${j}`});
        radio.addEventListener("change", () => show(data, path, end));
        label.appendChild(radio);
        label.appendChild(document.createTextNode(` speed ${path.speed}: ${path.label}`));
        const odds = path.maneuvers.map(m => `${m.label} (hex ${m.step}): ${pct(m.chance)} to succeed`);
        const why = odds.length
          ? `${odds.join("; ")}. Ends here ${pct(path.chance)} of the time; if it fails: ${where(path.if_failed)}.`
          : "No maneuver check: it ends here for sure.";
        label.appendChild(el("div", {class: "odds"}, why));
        more.appendChild(label);
        if (!first) first = [radio, path, end];
      });
      if (end.more_paths) more.appendChild(el("p", {class: "muted"}, `and ${end.more_paths} less likely way(s)`));
      // the ends before the ways off the map, unless the "exit" marker was tapped
      if (exitFirst) list.appendChild(box); else list.insertBefore(box, list.querySelector(".move-exit"));
    });
    if (!first && offs.length) {
      const radio = list.querySelector(".move-exit input");
      first = [radio, offs[0], {edge: offs[0].edge}];
    }
    if (first) { first[0].checked = true; show(data, first[1], first[2]); }
  }

  function show(data, path, end) {
    // the path on the map: from the aircraft through every hex it enters
    const g = layer("move-path");
    const line = [data.start.hex, ...path.hexes].map(h => center(h[0], h[1]));
    if (end.edge) line.push(beyond(path.hexes.length ? path.hexes[path.hexes.length - 1] : data.start.hex, end.edge, 0.95));
    const pts = line.map(p => p.join(",")).join(" ");
    g.appendChild(svgEl("polyline", {points: pts, fill: "none", stroke: "#1b5e20", "stroke-width": "3", "stroke-linejoin": "round", "pointer-events": "none"}));
    path.maneuvers.forEach(m => {
      const h = path.hexes[Math.min(m.step, path.hexes.length) - 1] || data.start.hex;
      const [x, y] = center(h[0], h[1]);
      g.appendChild(svgEl("circle", {cx: x, cy: y, r: 5, fill: "#c62828", "pointer-events": "none"}));
    });
    // status at the end of the move and the clouds, when the rules offer a choice
    const form = document.getElementById("move-confirm");
    form.querySelectorAll(".move-extra").forEach(e => e.remove());
    let status = null, clouds = null;
    if (path.statuses.length > 1) {
      const label = el("label", {class: "move-extra"}, "Status at the end: ");
      status = el("select", {name: "move-status"});
      path.statuses.forEach(s => status.appendChild(el("option", {value: s}, s.replace("_", " "))));
      label.appendChild(status);
      form.insertBefore(label, document.getElementById("move-confirm-button"));
    }
    if (path.clouds) {
      const label = el("label", {class: "move-extra"});
      clouds = el("input", {type: "checkbox"});
      label.appendChild(clouds);
      label.appendChild(document.createTextNode(" try to enter the clouds"));
      form.insertBefore(label, document.getElementById("move-confirm-button"));
    }
    function fill() {
      const action = {...path.action, status: status ? status.value : path.statuses[0]};
      if (clouds && clouds.checked) action.clouds = true;
      form.elements.action.value = JSON.stringify(action);
    }
    if (status) status.addEventListener("change", fill);
    if (clouds) clouds.addEventListener("change", fill);
    fill();
    document.getElementById("move-chosen").textContent =
      `Chosen: speed ${path.speed}, ${path.label}; ` +
      (end.edge ? `leaves the map by the ${end.edge} edge` : `ends facing ${FACING[end.facing]} at altitude ${end.altitude}`) +
      (path.maneuvers.length ? ` (${pct(path.chance)} to get there).` : ".");
    form.hidden = false;
  }

  function movable() {
    const box = document.getElementById("move-pick");
    return box ? box.dataset.movable.split(",").map(Number) : [];
  }

  function toHex(marker) {  // a tap on a marker over a hex in reach is a tap on that hex
    const hex = document.querySelector(`#move-layer .reach[data-hex="${marker.dataset.hex}"]`);
    if (hex) hex.dispatchEvent(new MouseEvent("click"));
  }

  function init() {
    const box = document.getElementById("move-pick");
    if (!box || !document.getElementById("play-map")) return;
    const ids = movable();
    if (!ids.includes(plane)) plane = ids[0];
    box.querySelectorAll(".move-plane").forEach(b =>
      b.addEventListener("click", () => choose(Number(b.dataset.plane))));
    // a tap on the marker of an aircraft you may move chooses it, as its button does; a tap
    // on another marker is a tap on its hex (it may be one in reach)
    const planes = document.querySelector("#play-map #planes");
    planes.classList.add("picking");
    planes.querySelectorAll(".plane").forEach(m => {
      const id = Number(m.dataset.plane);
      if (ids.includes(id)) {
        m.classList.add("movable");
        m.insertBefore(svgEl("circle", {class: "movable-ring", r: S * 0.75, fill: "#ffffff", "fill-opacity": "0.01", stroke: "#f4b400", "stroke-width": "1.5"}), m.firstChild);
        const name = (box.querySelector(`.move-plane[data-plane="${id}"]`) || {}).textContent || `#${id}`;
        pressable(m, `Move ${name}`, () => { if (id !== plane) choose(id); else toHex(m); });
      } else {
        m.addEventListener("click", () => toHex(m));
      }
    });
    choose(plane);
  }
  // the poll swaps a new board in when the battle moves on: start again on it
  new MutationObserver(init).observe(document.getElementById("board"), {childList: true});
  init();
})();
