// The battle report's map and step buttons (templates/battles/report.html): the frames and
// the aircraft's names come from the page's json_script elements, the hex size from the
// map's data-hex-size; no inline script, so the page runs under the site's CSP.
(function () {
  const frames = JSON.parse(document.getElementById("frames").textContent);
  const names = JSON.parse(document.getElementById("plane-names").textContent);
  AngelsMap.zoom(document.getElementById("map"));  // +/−, pinch and drag on a phone
  const centre = AngelsHex.grid(Number(document.getElementById("map").dataset.hexSize)).center;  // the hex maths, shared with the play page
  const colours = {axis: "#a8322d", allied: "#2b5fad"};
  const svgNS = "http://www.w3.org/2000/svg";
  let at = 0;
  function draw() {
    const f = frames[at], g = document.getElementById("planes");
    g.innerHTML = "";
    const shown = f.aircraft.filter(a => !(a.fate === "destroyed" || a.fate === "retreated" || a.fate === "exited"));
    const places = AngelsHex.stack(shown.map(a => `${a.col},${a.row}`));  // aircraft sharing a hex
    shown.forEach((a, i) => {
      const [x, y] = centre(a.col, a.row), angle = -90 + 60 * a.facing;
      const grp = document.createElementNS(svgNS, "g");
      grp.setAttribute("class", "plane");
      grp.setAttribute("data-plane", a.plane);
      grp.setAttribute("transform", `translate(${x + AngelsHex.stackShift(places[i])},${y})`);
      if (a.lit || a.cloud || a.directed) {
        const ring = document.createElementNS(svgNS, "circle");
        ring.setAttribute("r", 14);
        ring.setAttribute("fill", a.lit ? "#fff2a8" : (a.cloud ? "#ffffff" : "none"));
        ring.setAttribute("fill-opacity", a.cloud ? 0.8 : 0.9);
        ring.setAttribute("stroke", a.directed ? "#2e8b57" : "#8a9bab");
        ring.setAttribute("stroke-dasharray", a.cloud ? "3 2" : "");
        ring.setAttribute("stroke-width", a.directed ? 2 : 1);
        grp.append(ring);
      }
      const body = document.createElementNS(svgNS, "polygon");
      body.setAttribute("points", a.round ? "7,0 3.5,6 -3.5,6 -7,0 -3.5,-6 3.5,-6" : (a.bomber ? "11,0 -8,8 -8,-8" : "12,0 -7,7 -3,0 -7,-7"));  // round: a piece of another game with no facing
      body.setAttribute("transform", `rotate(${angle})`);
      body.setAttribute("fill", colours[a.side]);
      body.setAttribute("stroke", a.hp < a.hits ? "#f4b400" : "#fff");
      body.setAttribute("stroke-width", a.hp < a.hits ? 2.5 : 1);
      const label = document.createElementNS(svgNS, "text");
      label.setAttribute("x", 9); label.setAttribute("y", -9); label.setAttribute("class", "plane-label");
      label.setAttribute("dy", `${AngelsHex.stackLift(places[i])}em`);
      const marks = [a.cloud ? "in clouds" : "", a.lit ? "lit" : "", a.directed ? "directed" : ""].filter(Boolean);
      label.textContent = a.label ? a.label : `#${a.plane} A${a.alt}${a.status !== "none" ? " " + a.status.replace("_", " ") : ""} ${a.hp}/${a.hits}${marks.length ? " " + marks.join(" ") : ""}`;
      const title = document.createElementNS(svgNS, "title");
      title.textContent = a.title ? a.title : `${names[a.plane] || a.name}, ${a.side}, altitude ${a.alt}, hit points ${a.hp}/${a.hits}${marks.length ? ", " + marks.join(", ") : ""}`;
      grp.append(body, label, title);
      g.append(grp);
    });
    AngelsMap.unclutter([...g.querySelectorAll(".plane-label")]);  // no two labels overlap
    const tails = document.getElementById("tails");
    tails.innerHTML = "";
    const where = {};
    for (const a of f.aircraft) where[a.plane] = centre(a.col, a.row);
    for (const [from, to] of (f.tailing || [])) {
      const [x1, y1] = where[from], [x2, y2] = where[to];
      const line = document.createElementNS(svgNS, "line");
      line.setAttribute("x1", x1); line.setAttribute("y1", y1); line.setAttribute("x2", x2); line.setAttribute("y2", y2);
      line.setAttribute("stroke", "#7b2cbf"); line.setAttribute("stroke-width", 2); line.setAttribute("stroke-dasharray", "4 3");
      const dot = document.createElementNS(svgNS, "circle");
      dot.setAttribute("cx", x2); dot.setAttribute("cy", y2); dot.setAttribute("r", 3.5); dot.setAttribute("fill", "#7b2cbf");
      const title = document.createElementNS(svgNS, "title");
      title.textContent = `${names[from]} tails ${names[to]}`;
      line.append(title);
      tails.append(line, dot);
    }
    document.querySelector("#event .text").textContent = f.text;
    document.querySelector("#event .rule").textContent = f.rule ? `(${f.rule})` : "";
    document.getElementById("where").textContent = `turn ${f.turn} · event ${at + 1}/${frames.length}`;
    const log = document.getElementById("log");
    for (const li of log.querySelectorAll("li")) {
      const here = +li.dataset.i === at;
      li.style.background = here ? "#fde9a9" : "";
      if (here) { li.setAttribute("aria-current", "step"); log.scrollTop = li.offsetTop - log.offsetTop - 80; }
      else li.removeAttribute("aria-current");
    }
  }
  function go(how) {
    const turn = frames[at].turn;
    if (how === "next") at = Math.min(frames.length - 1, at + 1);
    if (how === "back") at = Math.max(0, at - 1);
    if (how === "turn-next") { while (at < frames.length - 1 && frames[at].turn <= turn) at++; }
    if (how === "first") at = 0;
    if (how === "last") at = frames.length - 1;
    if (how === "turn-back") { while (at > 0 && frames[at].turn >= turn) at--; while (at > 0 && frames[at - 1].turn === frames[at].turn) at--; }
    draw();
  }
  let timer = null;
  const play = document.getElementById("play");
  function playing(on) {
    if (timer) { clearInterval(timer); timer = null; }
    if (on) timer = setInterval(() => { if (at >= frames.length - 1) playing(false); else go("next"); }, 700);
    play.setAttribute("aria-label", on ? "Pause" : "Play");
    play.querySelector(".label").textContent = on ? "Pause" : "Play";
    play.querySelector(".icon-play").style.display = on ? "none" : "";
    play.querySelector(".icon-pause").style.display = on ? "" : "none";
  }
  document.querySelectorAll("#controls button").forEach(b => b.addEventListener("click", () => {
    if (b.dataset.go === "play") { playing(!timer); return; }
    playing(false);
    go(b.dataset.go);
  }));
  document.querySelectorAll("#log li").forEach(li => li.addEventListener("click", () => { playing(false); at = +li.dataset.i; draw(); }));
  draw();
})();
