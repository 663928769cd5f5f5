// A decision built step by step on the play page (templates/battles/_play_steps.html, issue 25).
// Each step is a GET form of the board one step further, so the page works without script;
// here a step fetches only the board (?part=board) and swaps it in, keeping the steps in the
// address (the poll in play.js asks for the same steps), and the typed notation is read as it
// is typed through the turn API (?text=): what it reads as, and what may follow, or the
// character that fits no step. Nothing is posted here: Play posts the form, checked whole.
(function () {
  const board = document.getElementById("board");
  if (!board) return;
  board.addEventListener("submit", async function (event) {
    const form = event.target;
    if (!form.classList || !form.classList.contains("step-form")) return;
    event.preventDefault();
    const steps = new FormData(form).get("steps");
    const query = steps === null ? "" : "?steps=" + encodeURIComponent(steps);
    const sep = query ? "&" : "?";
    try {
      const part = await fetch(board.dataset.playUrl + query + sep + "part=board", {credentials: "same-origin"});
      if (!part.ok) throw new Error(part.status);
      board.innerHTML = await part.text();
      history.replaceState(null, "", board.dataset.playUrl + query);
      const first = board.querySelector("#steps button.step, #steps .step-play");
      if (first) first.focus({preventScroll: true});
    } catch (e) {
      form.submit();  // the plain way: the whole page
    }
  });
  let asked = 0;
  board.addEventListener("input", async function (event) {
    if (event.target.id !== "steps-notation") return;
    const reading = document.getElementById("steps-reading");
    const text = event.target.value;
    const mine = ++asked;
    if (!text.trim()) { reading.textContent = ""; return; }
    const side = document.getElementById("steps").dataset.side;
    const url = board.dataset.turnUrl + "?since=999999&side=" + encodeURIComponent(side) + "&text=" + encodeURIComponent(text);
    try {
      const answer = await fetch(url, {credentials: "same-origin"});
      const body = await answer.json();
      if (mine !== asked) return;  // a later keystroke's answer wins
      if (!answer.ok) { reading.textContent = body.detail || "not readable"; return; }
      const s = body.steps;
      const words = s.chosen.map(function (c) { return c.step + ": " + c.label; }).join(" · ");
      const next = s.next.map(function (n) { return n.step + " (" + n.label + ")"; }).join(", ");
      let said = "Reads as " + s.text + " — " + words + ". ";
      if (s.complete) said += s.problem ? "Refused whole: " + s.problem : "Whole: ready to play.";
      if (next) said += (s.complete ? " You may still add " : " Next") + (s.prompt ? " (" + s.prompt + ")" : "") + ": " + next + ".";
      reading.textContent = said;
    } catch (e) { /* the next keystroke asks again */ }
  });
})();
