// Verify page: six one-digit boxes that behave like one code field.
// Typing advances, Backspace goes back, paste and SMS autofill fill all six, the sixth digit
// submits exactly once. Without this script the boxes and the Verify button still work.
(function () {
  "use strict";
  // A page answered to a POST (a wrong code) becomes a plain GET entry of /verify in the
  // history, so Back or Reload later asks the server again (which redirects as the session now
  // requires) instead of offering to resubmit the form or asking for /verify/resend with GET.
  if (window.history && window.history.replaceState) window.history.replaceState(null, "", "/verify");
  // "0:27": a countdown in minutes and seconds.
  function clock(seconds) {
    var s = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (s < 10 ? "0" : "") + s;
  }

  // "Text me a new code" and "Call me with the code instead": each shows the wait while the
  // cooldown runs, from the time it ends (not a count of ticks, which a phone's sleeping tab
  // would stretch).
  ["resend-button", "call-button"].forEach(function (id) {
    var button = document.getElementById(id);
    if (!button || !button.hasAttribute("data-wait")) return;
    var readyAt = Date.now() + parseInt(button.getAttribute("data-wait") || "0", 10) * 1000;
    var label = button.textContent;
    var tick = function () {
      var wait = Math.ceil((readyAt - Date.now()) / 1000);
      if (wait > 0) {
        button.disabled = true;
        button.textContent = label + " (" + clock(wait) + ")";
        setTimeout(tick, (readyAt - Date.now()) % 1000 || 1000);
      } else {
        button.disabled = false;
        button.textContent = label;
      }
    };
    tick();
    // delivery.js: the text was reported undelivered, so the server lifted the wait.
    document.addEventListener("delivery:lost", function () {
      readyAt = Date.now();
      tick();
    });
  });

  var form = document.getElementById("verify-form");
  if (!form) {
    // A dead code or a lock: no boxes, only what can be done next; the sentence takes focus.
    var said = document.getElementById("otp-error");
    if (said && said.textContent) said.focus();
    return;
  }
  var boxes = [];
  for (var i = 1; i <= 6; i++) boxes.push(document.getElementById("d" + i));
  if (boxes.some(function (box) { return !box; })) return;
  var error = document.getElementById("otp-error");
  var button = document.getElementById("verify-button");
  var submitted = false;
  var otpAbort = null;

  function firstEmpty() {
    for (var i = 0; i < boxes.length; i++) if (boxes[i].value === "") return i;
    return boxes.length - 1;
  }
  function code() { return boxes.map(function (box) { return box.value; }).join(""); }

  // Only the next box to fill is in the Tab order (a roving tabindex): Tab from it goes on to
  // Verify, Shift+Tab back before the group. No keyboard trap (WCAG 2.1.2).
  function focusNext() {
    var next = firstEmpty();
    boxes.forEach(function (box, i) { box.tabIndex = i === next ? 0 : -1; });
    boxes[next].focus();
  }

  // The page hands its script its words, in the page's language, on the Verify button.
  function say(name) { return (button && button.getAttribute("data-" + name)) || ""; }

  function showError(sentence) {
    if (error) error.textContent = sentence;
    boxes.forEach(function (box) {
      if (sentence) box.setAttribute("aria-invalid", "true"); else box.removeAttribute("aria-invalid");
    });
  }

  // The server answers a malformed code without counting a try; saying so here first saves the
  // round trip. Returns whether the form may go.
  function wellFormed() {
    if (/^\d{6}$/.test(code())) return true;
    showError(say("enter-code"));
    focusNext();
    return false;
  }

  function markBusy() {
    submitted = true;
    if (otpAbort) otpAbort.abort();
    if (button) {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      button.textContent = say("busy") || button.textContent;
    }
  }

  function submitOnce() {
    if (submitted || !/^\d{6}$/.test(code())) return;
    markBusy();
    form.submit();
  }

  // The code in a pasted or autofilled text: the first run of exactly six digits ("Your code is
  // 123456. It expires in 10 minutes."), also when written "123 456" or "123-456". Nothing is
  // guessed: two different six-digit runs give `null`, a single longer run ("1234567") `false`,
  // and the person is asked to type the code.
  function codeIn(text) {
    function sixes(t) {
      return (t.match(/\d+/g) || []).filter(function (run) { return run.length === 6; });
    }
    // Runs as written and with spaces or dashes between digits closed up: "123 456 and 654321"
    // holds two codes, not one.
    var found = sixes(text).concat(sixes(text.replace(/(\d)[\s\u00a0-]+(?=\d)/g, "$1")));
    if (found.length > 0) {
      for (var i = 1; i < found.length; i++) if (found[i] !== found[0]) return null;
      return found[0];
    }
    var runs = text.replace(/(\d)[\s\u00a0-]+(?=\d)/g, "$1").match(/\d+/g) || [];
    return runs.some(function (run) { return run.length > 6; }) ? false : "";
  }

  // Puts digits into the boxes from `start` on; returns how many were placed.
  function fill(digits, start) {
    var placed = 0;
    for (var i = start; i < boxes.length && placed < digits.length; i++) {
      boxes[i].value = digits.charAt(placed++);
    }
    return placed;
  }

  // Text that arrived in box `index` (typed, pasted, autofilled, or there before the script).
  function takeText(index, text) {
    var whole = codeIn(text);
    if (whole === null || whole === false) {
      boxes.forEach(function (box) { box.value = ""; });
      showError(say(whole === null ? "many-codes" : "too-long"));
      focusNext();
      return;
    }
    if (whole) {
      // A whole code (paste, "From Messages" autofill): it replaces whatever was there.
      boxes.forEach(function (box) { box.value = ""; });
      fill(whole, 0);
    } else {
      boxes[index].value = "";
      var digits = text.replace(/\D/g, "");
      if (digits.length > 0) fill(digits, firstEmpty());
    }
    if (code().length > 0) showError("");
    focusNext();
    if (code().length === 6) submitOnce();
  }

  boxes.forEach(function (box, index) {
    box.addEventListener("input", function () { takeText(index, box.value); });
    box.addEventListener("keydown", function (event) {
      if (event.key === "Backspace") {
        event.preventDefault();
        var last = -1;
        for (var i = boxes.length - 1; i >= 0; i--) if (boxes[i].value !== "") { last = i; break; }
        if (last >= 0) boxes[last].value = "";
        focusNext();
      } else if (event.key === "Enter") {
        event.preventDefault();
        if (wellFormed()) submitOnce();
      }
    });
    box.addEventListener("paste", function (event) {
      var text = (event.clipboardData || window.clipboardData).getData("text");
      event.preventDefault();
      takeText(firstEmpty(), text);
    });
    // A tap on any box puts the cursor in the next box to fill (the original design's rule).
    box.addEventListener("focus", function () {
      var next = firstEmpty();
      if (index !== next && !(code().length === 6 && index === 5)) boxes[next].focus();
    });
  });

  form.addEventListener("submit", function (event) {
    if (submitted || !wellFormed()) { event.preventDefault(); return; }
    markBusy();
  });

  // WebOTP (Chrome on Android): the browser reads the code from the SMS bound to our domain.
  if ("OTPCredential" in window && window.AbortController) {
    otpAbort = new AbortController();
    navigator.credentials.get({ otp: { transport: ["sms"] }, signal: otpAbort.signal })
      .then(function (otp) {
        if (otp && otp.code && !submitted) { takeText(0, otp.code); }
      })
      .catch(function () { /* aborted or not allowed: typing still works */ });
  }

  // Digits typed or autofilled before this script ran (all in box one, or spread by taps) are
  // kept and spread over the boxes.
  var early = code();
  boxes.forEach(function (box) { box.value = ""; });
  if (early) takeText(0, early); else focusNext();
})();
