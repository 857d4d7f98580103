// Limit sentences ("Please try again in 8 minutes.") count down to the moment the wait ends,
// which the server gives in data-retry-at (seconds since 1970) or, for short waits a phone's
// clock may be too far off for, in data-retry-in (seconds from when the page came), and say
// "try again now" once it has. Without this script the sentence stays as the server said it.
(function () {
  "use strict";
  var loaded = Date.now();
  var elements = Array.prototype.slice.call(document.querySelectorAll("[data-retry-at], [data-retry-in]"));
  if (!elements.length) return;
  var phrase = /(try again )(in \d+ (?:seconds?|minutes?|hours?)|now)/;

  // "45 seconds", "9 minutes", "3 hours": rounded up, in the largest unit that fits, as the
  // server says it (SignInError.duration).
  function duration(seconds) {
    function plural(n, unit) { return n + " " + unit + (n === 1 ? "" : "s"); }
    if (seconds < 60) return plural(Math.max(1, seconds), "second");
    if (seconds < 3600) return plural(Math.ceil(seconds / 60), "minute");
    return plural(Math.ceil(seconds / 3600), "hour");
  }

  // The sentence was read out once when the page came; a number changing every second in an
  // alert would be read out again each time, so the updates are silent.
  elements.forEach(function (element) { element.setAttribute("aria-live", "off"); });

  function tick() {
    var waiting = false;
    elements.forEach(function (element) {
      // The end is read on each tick (not counted in ticks, which a sleeping tab stretches).
      var end = element.hasAttribute("data-retry-in")
        ? loaded + parseInt(element.getAttribute("data-retry-in"), 10) * 1000
        : parseInt(element.getAttribute("data-retry-at"), 10) * 1000;
      var left = Math.ceil((end - Date.now()) / 1000);
      var said = left > 0 ? "in " + duration(left) : "now";
      var text = element.textContent.replace(phrase, function (_, start) { return start + said; });
      if (text !== element.textContent) element.textContent = text;
      if (left > 0) waiting = true;
    });
    if (waiting) setTimeout(tick, 1000);
  }
  tick();
})();
