// What the provider reports of the last text or call, kept up to date without a reload: the
// page asks /verify/status every 5 seconds until the status is final (delivered, undelivered,
// failed) or the code's 10 minutes are over, and puts the server's sentence in
// #delivery-status. On Verify, a text that did not arrive shows the problem and, when calls
// are offered, "Call me with the code instead". Without this script a reload shows the same.
(function () {
  "use strict";
  var status = document.getElementById("delivery-status");
  if (!status || !window.fetch) return;
  var problem = document.getElementById("delivery-problem");
  var callForm = document.getElementById("call-form");
  var started = Date.now();

  function show(report) {
    if (report.sentence && status.textContent !== report.sentence) status.textContent = report.sentence;
    if (problem) {
      // Verify: only a code that will not come is worth the top of the page.
      if (report.problem && problem.hidden) {
        problem.hidden = false;
        // The server lifts the resend wait for a code that will not come (verify.js listens).
        document.dispatchEvent(new Event("delivery:lost"));
      }
      if (callForm) callForm.hidden = !report.callInstead;
    } else {
      status.className = (report.problem ? "error" : "hint") + " delivery";
    }
  }

  function ask() {
    if (Date.now() - started > 10 * 60 * 1000) return;
    fetch("/verify/status", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (report) {
        if (!report) return;
        show(report);
        if (!report.final) window.setTimeout(ask, 5000);
      })
      .catch(function () { window.setTimeout(ask, 15000); });
  }
  window.setTimeout(ask, 5000);
})();
