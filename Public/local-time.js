// Times in the reader's own time zone and language: every <time datetime> on the page (Your
// devices, an account's history) says its instant in UTC, said as such ("23 Nov 2026, 07:50
// UTC"), which is what a phone without this script shows; with it, the same instant in the
// phone's time zone, written the way the page's language writes dates ("Nov 23, 2026, 2:50 AM",
// "23 nov 2026, 2:50 a. m."). The UTC text stays in the title, for anyone who wants it.
(function () {
  "use strict";
  if (!window.Intl || !Intl.DateTimeFormat) return;
  var language = document.documentElement.lang || "en";
  var format;
  try {
    format = new Intl.DateTimeFormat(language === "es" ? "es-US" : "en-US",
      { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
  } catch (error) {
    return;
  }
  var times = document.querySelectorAll("time[datetime]");
  for (var i = 0; i < times.length; i++) {
    var when = new Date(times[i].getAttribute("datetime"));
    if (isNaN(when.getTime())) continue;
    times[i].title = times[i].textContent;
    times[i].textContent = format.format(when);
  }
})();
