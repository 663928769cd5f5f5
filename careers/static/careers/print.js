// "Print this page" links (a[data-print]): the browser's print dialog. A static file, not an
// onclick attribute, so the pages run under the site's CSP (no inline script).
document.querySelectorAll("a[data-print]").forEach(function (link) {
  link.addEventListener("click", function (event) {
    event.preventDefault();
    window.print();
  });
});
