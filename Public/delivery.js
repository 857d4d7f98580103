// What the provider reports of the last text or call, kept up to date without a reload: the
// page asks /verify/status every 5 seconds until the status is final (delivered, undelivered,
// failed) or the code's 10 minutes are over, and puts the server's sentence in
// #delivery-status (its number kept on one line, as the server's markup does). On Verify, a
// text that did not arrive shows the problem and, when calls are offered, "Call me with the
// code instead". Without this script a reload shows the same.
(function () {
  "use strict";
  var status = document.getElementById("delivery-status");
  if (!status || !window.fetch) return;
  var problem = document.getElementById("delivery-problem");
  var callForm = document.getElementById("call-form");
  var notice = document.getElementById("notice");
  var started = Date.now();
  var said = "";

  function say(report) {
    if (report.sentence === said) return;
    said = report.sentence;
    while (status.firstChild) status.removeChild(status.firstChild);
    status.appendChild(document.createTextNode(report.before));
    if (report.number) {
      var number = document.createElement("span");
      number.className = "nowrap";
      number.textContent = report.number;
      status.appendChild(number);
    }
    status.appendChild(document.createTextNode(report.after));
  }

  function show(report) {
    if (!problem) {
      // The help page: every report is news.
      say(report);
      status.className = (report.problem ? "error" : "hint") + " delivery";
      return;
    }
    // Verify: only a code that will not come is worth the top of the page.
    if (!report.problem || !problem.hidden) return;
    if (callForm) callForm.hidden = !report.callInstead;
    // A "We're calling you now" notice would contradict it.
    if (notice) notice.textContent = "";
    problem.hidden = false;
    // The alert is filled once it is shown, so screen readers announce it.
    window.setTimeout(function () { say(report); }, 50);
    // The server lifts the resend wait for a text that will not come (verify.js listens).
    document.dispatchEvent(new Event("delivery:lost"));
  }

  function ask() {
    if (Date.now() - started > 10 * 60 * 1000) return;
    // A redirect means the sign-in is over (signed in or out in another tab): stop asking.
    fetch("/verify/status", {
      credentials: "same-origin", cache: "no-store", redirect: "manual", headers: { Accept: "application/json" }
    })
      .then(function (response) {
        var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        return response.ok && json ? response.json() : null;
      })
      .then(function (report) {
        if (!report) return;
        show(report);
        if (!report.final) window.setTimeout(ask, 5000);
      }, function () {
        // The network failed (a tunnel, a lift): try again a little later.
        window.setTimeout(ask, 15000);
      });
  }
  window.setTimeout(ask, 5000);
})();
