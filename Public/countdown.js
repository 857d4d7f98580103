// Limit sentences ("Please try again in 8 minutes.") count down to the moment the wait ends,
// which the server gives in data-retry-at (seconds since 1970) or, for short waits a phone's
// clock may be too far off for, in data-retry-in (seconds from when the page came), and say
// "try again now" once it has. The element's data-said is the part of its sentence that says
// the wait ("in 8 minutes"); the page's words for waits are on <html> (data-wait-in, …), in the
// page's language. Without this script the sentence stays as the server said it.
(function () {
  "use strict";
  var loaded = Date.now();
  var elements = Array.prototype.slice.call(document.querySelectorAll("[data-retry-at], [data-retry-in]"));
  if (!elements.length) return;
  var root = document.documentElement;
  function word(name) { return root.getAttribute("data-wait-" + name) || ""; }
  function plural(unit, n) { return word(unit + (n === 1 ? "-one" : "-other")).replace("{n}", String(n)); }

  // "45 seconds", "9 minutes", "3 hours": rounded up, in the largest unit that fits, as the
  // server says it (Catalog.duration).
  function duration(seconds) {
    if (seconds < 60) return plural("second", Math.max(1, seconds));
    if (seconds < 3600) return plural("minute", Math.ceil(seconds / 60));
    return plural("hour", Math.ceil(seconds / 3600));
  }

  // The sentence was read out once when the page came; a number changing every second in an
  // alert would be read out again each time, so the updates are silent.
  elements.forEach(function (element) { element.setAttribute("aria-live", "off"); });

  function tick() {
    var waiting = false;
    elements.forEach(function (element) {
      var said = element.getAttribute("data-said");
      if (!said || element.textContent.indexOf(said) < 0) return;
      // The end is read on each tick (not counted in ticks, which a sleeping tab stretches).
      var end = element.hasAttribute("data-retry-in")
        ? loaded + parseInt(element.getAttribute("data-retry-in"), 10) * 1000
        : parseInt(element.getAttribute("data-retry-at"), 10) * 1000;
      var left = Math.ceil((end - Date.now()) / 1000);
      var now = left > 0 ? word("in").replace("{duration}", duration(left)) : word("now");
      if (!now) return;
      if (now !== said) {
        element.textContent = element.textContent.replace(said, now);
        element.setAttribute("data-said", now);
      }
      if (left > 0) waiting = true;
    });
    if (waiting) setTimeout(tick, 1000);
  }
  tick();
})();
