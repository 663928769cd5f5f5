// Each built flight's points as its slots change (battles/new_game.py draws them; the
// server adds them up the same way on every answer): an air unit's aircraft points plus
// its pilot's quality points; a side over the scenario's budget is shown in red.
(function () {
  "use strict";
  function points(select) {
    var option = select && select.selectedOptions[0];
    return option && option.dataset.points ? parseInt(option.dataset.points, 10) : 0;
  }
  function update(form) {
    var budgetInput = form.querySelector("[data-budget]");
    var budget = budgetInput && budgetInput.value ? parseInt(budgetInput.value, 10) : null;
    form.querySelectorAll("[data-flight]").forEach(function (flight) {
      var total = 0;
      flight.querySelectorAll(".slot").forEach(function (slot) {
        var aircraft = slot.querySelector("[data-aircraft]");
        if (aircraft && aircraft.value) {
          total += points(aircraft) + points(slot.querySelector("[data-quality]"));
        }
      });
      var out = flight.querySelector("[data-points]");
      out.textContent = String(total);
      out.classList.toggle("over-budget", budget !== null && total > budget);
    });
  }
  document.querySelectorAll(".scenario-form").forEach(function (form) {
    form.addEventListener("change", function () { update(form); });
    form.addEventListener("input", function () { update(form); });
    update(form);
  });
})();
