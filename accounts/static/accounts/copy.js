/* Copy buttons (issue 24 §7): a <button data-copy="ID" hidden> beside the element #ID
   (an invitation link) is shown once this file runs and copies that element's text.
   Without JavaScript the button stays hidden and the link stays selectable text. The
   site's CSP allows only scripts from files like this one: no inline script, no on*=. */
(function () {
  "use strict";

  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function fallbackCopy(node) {
    selectText(node);
    try {
      return document.execCommand("copy");
    } catch (err) {
      return false;
    }
  }

  function say(button, status, words) {
    button.textContent = words;
    button.dataset.copied = status;
    window.clearTimeout(button._copyTimer);
    button._copyTimer = window.setTimeout(function () {
      button.textContent = button.dataset.label;
    }, 4000);
  }

  function copy(button) {
    var node = document.getElementById(button.dataset.copy);
    if (!node) return;
    var text = node.textContent.trim();
    var done = function () { say(button, "yes", "Copied"); };
    var failed = function () {
      if (fallbackCopy(node)) done();
      else say(button, "no", "Selected: press Ctrl+C");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.dataset.label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () { copy(button); });
  });
})();
