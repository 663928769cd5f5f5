// The new-battle page (templates/battles/new.html): the game is chosen in a small GET form
// of its own ("Choose" shows another game's own settings, never carrying the battle form's
// CSRF token into the address), and the battle form posts it as a hidden "system". Keep that
// hidden field the game shown, so a scenario of another game picked in the form (the list
// groups each game's) is created as that game's battle. Without a script the form posts the
// game the page was shown for, and "Choose" still works.
(function () {
  "use strict";
  const choice = document.querySelector("#choose-game select[name=system]");
  const posted = document.querySelector("form.new-battle input[type=hidden][name=system]");
  if (!choice || !posted) return;
  const same = () => { posted.value = choice.value; };
  choice.addEventListener("change", same);
  window.addEventListener("pageshow", same);  // a select the browser restored going back
  same();
})();
