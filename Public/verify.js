// Verify page: six one-digit boxes that behave like one code field.
// Typing advances, backspace goes back, paste and SMS autofill fill all six, the sixth digit
// submits exactly once. Without this script the boxes and the Verify button still work.
(function () {
  "use strict";
  // A page answered to a POST (a wrong code, an invalid number) becomes a plain GET entry in
  // the history, so Back or Reload later asks the server again (which redirects as the session
  // now requires) instead of offering to resubmit the form.
  if (window.history && window.history.replaceState) window.history.replaceState(null, "", window.location.href);
  var form = document.getElementById("verify-form");
  if (!form) return;
  var boxes = [];
  for (var i = 1; i <= 6; i++) boxes.push(document.getElementById("d" + i));
  if (boxes.some(function (box) { return !box; })) return;
  var submitted = false;
  var otpAbort = null;

  function firstEmpty() {
    for (var i = 0; i < boxes.length; i++) if (boxes[i].value === "") return i;
    return boxes.length - 1;
  }
  function focusNext() { boxes[firstEmpty()].focus(); }
  function code() { return boxes.map(function (box) { return box.value; }).join(""); }

  function submitOnce() {
    if (submitted) return;
    if (!/^\d{6}$/.test(code())) return;
    submitted = true;
    if (otpAbort) otpAbort.abort();
    var button = document.getElementById("verify-button");
    if (button) { button.disabled = true; button.setAttribute("aria-busy", "true"); }
    form.submit();
  }

  // Puts digits into the boxes from `start` on; returns how many were placed.
  function fill(digits, start) {
    var placed = 0;
    for (var i = start; i < boxes.length && placed < digits.length; i++) {
      boxes[i].value = digits.charAt(placed++);
    }
    return placed;
  }

  function takeText(index, text) {
    var digits = text.replace(/\D/g, "");
    boxes[index].value = "";
    if (digits.length >= 6) {
      // A whole code (paste, "From Messages" autofill): it replaces whatever was there.
      boxes.forEach(function (box) { box.value = ""; });
      fill(digits.slice(-6), 0);
    } else if (digits.length > 0) {
      fill(digits, firstEmpty());
    }
    focusNext();
    if (firstEmptyIsFull()) submitOnce();
  }
  function firstEmptyIsFull() { return code().length === 6; }

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
        submitOnce();
      }
    });
    box.addEventListener("paste", function (event) {
      var text = (event.clipboardData || window.clipboardData).getData("text");
      event.preventDefault();
      takeText(firstEmpty(), text);
    });
    // Only the next box to fill may hold the cursor.
    box.addEventListener("focus", function () {
      var next = firstEmpty();
      if (index !== next && !(code().length === 6 && index === 5)) boxes[next].focus();
    });
  });

  form.addEventListener("submit", function (event) {
    if (submitted) { event.preventDefault(); return; }
    submitted = true;
    if (otpAbort) otpAbort.abort();
  });

  // Resend: show the wait while the cooldown runs.
  var resend = document.getElementById("resend-button");
  if (resend) {
    var wait = parseInt(resend.getAttribute("data-wait") || "0", 10);
    var label = resend.textContent;
    var tick = function () {
      if (wait > 0) {
        resend.disabled = true;
        resend.textContent = label + " (" + wait + " s)";
        wait -= 1;
        setTimeout(tick, 1000);
      } else {
        resend.disabled = false;
        resend.textContent = label;
      }
    };
    tick();
  }

  // WebOTP (Chrome on Android): the browser reads the code from the SMS bound to our domain.
  if ("OTPCredential" in window && window.AbortController) {
    otpAbort = new AbortController();
    navigator.credentials.get({ otp: { transport: ["sms"] }, signal: otpAbort.signal })
      .then(function (otp) {
        if (otp && otp.code && !submitted) { takeText(0, otp.code); }
      })
      .catch(function () { /* aborted or not allowed: typing still works */ });
  }

  boxes.forEach(function (box) { box.value = ""; });
  focusNext();
})();
