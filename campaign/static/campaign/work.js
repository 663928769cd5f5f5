// The campaign page's slow work (templates/campaign/_work.html): followed until it is done.
(function () {
  var box = document.getElementById("work");
  var started = Array.prototype.map.call(box.querySelectorAll("li[data-key]"), function (li) { return li.dataset.key; });
  function show(items) {
    var list = box.querySelector("ul");
    list.textContent = "";
    items.forEach(function (w) {
      var li = document.createElement("li"), a = document.createElement("a");
      li.dataset.key = w.key; a.href = w.url; a.textContent = w.text; li.appendChild(a);
      if (w.total) {
        var bar = document.createElement("progress");
        bar.max = w.total; bar.value = w.done; bar.textContent = w.done + " of " + w.total;
        li.appendChild(document.createTextNode(" ")); li.appendChild(bar);
      }
      list.appendChild(li);
    });
  }
  function poll() {
    fetch(box.dataset.url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) { setTimeout(poll, 3000); return; }
        var now = data.items.map(function (w) { return w.key; });
        // a piece of work is done: the campaign moved on, so show the page as it is now
        if (started.some(function (k) { return now.indexOf(k) < 0; })) { location.reload(); return; }
        show(data.items);
        setTimeout(poll, 1000);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  setTimeout(poll, 1000);
})();
