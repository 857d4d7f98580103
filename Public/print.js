// "Print": a button shown only where a script can print (without one, the browser's own Print
// menu prints the same page; the page's print styles leave only the codes and what they are).
(function () {
  "use strict";
  var button = document.getElementById("recovery-print");
  if (!button || !window.print) return;
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
})();
