// The play page (templates/battles/play.html): its board follows the battle; the URLs come
// from the board's data- attributes (no inline script: the site's CSP allows none).
// The page follows the battle by polling the turn endpoint every 2 s, not with
// server-sent events or websockets: polling works in the embedded default (one
// process, no Redis, no Channels, no worker) and behind any proxy, and one
// short GET every 2 s per open page is cheap. When the version moves on (a move
// by the other side or a computer pilot), the board is fetched again and
// swapped in, so the other side's move appears without reloading the page.
(function () {
  const board = document.getElementById("board");
  const turnUrl = board.dataset.turnUrl + "?since=999999";
  const boardUrl = board.dataset.playUrl + "?part=board";
  async function poll() {
    if (board.dataset.status !== "in_play") return;
    try {
      const asked = await fetch(turnUrl, {credentials: "same-origin"});
      if (!asked.ok) throw new Error(asked.status);  // (an error is never swapped in)
      const turn = await asked.json();
      if (String(turn.version) !== board.dataset.version || turn.status !== board.dataset.status) {
        // a decision being built step by step stays built (battles/play_steps.js keeps it in the address)
        const building = new URLSearchParams(location.search).get("steps");
        const url = building === null ? boardUrl : boardUrl + "&steps=" + encodeURIComponent(building);
        const part = await fetch(url, {credentials: "same-origin"});
        if (!part.ok) throw new Error(part.status);
        const html = await part.text();
        board.innerHTML = html;
        board.dataset.version = String(turn.version);
        board.dataset.status = turn.status;
      }
    } catch (e) { /* the next poll tries again */ }
    setTimeout(poll, 2000);
  }
  setTimeout(poll, 2000);
  // the time left for the decision, counted down here; at zero the next poll brings the
  // computer pilot's decision (reading the turn passes the deadline, even with no beat task)
  setInterval(function () {
    const left = document.getElementById("time-left");
    if (!left) return;
    const s = Math.max(0, Math.round((Date.parse(left.dataset.due) - Date.now()) / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    left.textContent = [h ? h + " h" : "", m ? m + " min" : "", r || !(h || m) ? r + " s" : ""].filter(Boolean).join(" ");
  }, 1000);
})();
