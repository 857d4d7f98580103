// What Back shows. Safari (WebKit) keeps pages in its back/forward cache even when they are sent
// with Cache-Control: no-store, and Back shows them again as they were without asking the server:
// Verify after signing in, Home with its balances after logging out. Every page here depends on
// the session, so a page brought back from that cache is kept hidden and asked for again; the
// server then answers as the session now requires (Home, or Login).
(function () {
  "use strict";
  var root = document.documentElement;
  window.addEventListener("pagehide", function (event) {
    // Going into the cache: stored hidden, so no restore (or swipe-back preview) shows it.
    if (event.persisted) root.classList.add("stale");
  });
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    root.classList.add("stale");
    window.location.reload();
  });
  // A page answered to a POST (a refused form) becomes a plain GET entry of its address, so
  // Chromium's Back or Reload there asks the server again (which answers with the page as it is
  // now) instead of offering to send the form again. (WebKit's Reload still posts it again.)
  try {
    if (window.history && window.history.replaceState) window.history.replaceState(null, "", window.location.href);
  } catch (e) { /* too many calls: the entry stays as it was */ }
})();
