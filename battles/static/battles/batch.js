// A batch's page (templates/battles/batch.html) follows its progress until it is done.
(function () {
  var box = document.getElementById("batch-progress");
  function poll() {
    fetch(box.dataset.url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (b) {
        if (!b) { setTimeout(poll, 3000); return; }
        if (b.summary !== null) { location.reload(); return; }
        box.querySelector(".progress-text").textContent = "battles " + b.finished + " of " + b.runs;
        box.querySelector("progress").value = b.finished;
        setTimeout(poll, 1000);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 1000);
})();
