// Login page: formats the phone number as it is typed and stops double submits.
(function () {
  "use strict";
  var form = document.getElementById("login-form");
  var phone = document.getElementById("phone");
  if (!form || !phone) return;
  // After a refusal the error summary takes focus (its link leads to the field), as GOV.UK's
  // pattern does, so a screen reader starts with what went wrong.
  var summary = document.getElementById("error-summary");
  if (summary) summary.focus();

  // No US area code starts with 0 or 1, so a leading 1 (typed "+1 530…" or "1 530…") is the
  // country code from the first digit on, not only once the number is complete; it is kept
  // in front as "+1 ".
  function format(value) {
    var digits = value.replace(/\D/g, "");
    var country = digits.charAt(0) === "1";
    if (country) digits = digits.slice(1);
    digits = digits.slice(0, 10);
    var prefix = country ? "+1 " : "";
    if (digits.length === 0) return value;
    if (digits.length < 4) return prefix + "(" + digits;
    if (digits.length < 7) return prefix + "(" + digits.slice(0, 3) + ") " + digits.slice(3);
    return prefix + "(" + digits.slice(0, 3) + ") " + digits.slice(3, 6) + "-" + digits.slice(6);
  }

  // A remembered number is shown filled in ("Welcome back"). Digits typed or pasted into it,
  // wherever the cursor was, start a new number instead of mixing into the remembered one, so
  // the field always shows exactly the number Next signs in with. What replaces the whole value
  // (autofill, a paste over a selection) and what deletes (an edit) are kept as they are.
  var welcome = document.getElementById("remembered");
  var remembered = welcome ? phone.value : null;
  function startOver() {
    var before = remembered, now = phone.value;
    remembered = null;
    if (welcome) welcome.hidden = true;
    // What went in: the new value less what it shares with the remembered one at each end.
    var start = 0, end = 0;
    while (start < before.length && start < now.length && before.charAt(start) === now.charAt(start)) start++;
    while (end < before.length - start && end < now.length - start &&
           before.charAt(before.length - 1 - end) === now.charAt(now.length - 1 - end)) end++;
    // Only a pure insertion keeps all of the remembered value around what went in.
    if (start + end === before.length && now.length > before.length) phone.value = now.slice(start, now.length - end);
  }

  phone.addEventListener("input", function (event) {
    if (remembered !== null && phone.value !== remembered) startOver();
    // Deleting a formatting character must not be undone by reformatting.
    if (event.inputType && event.inputType.indexOf("delete") === 0) return;
    // Leave anything that is not a plain US number (letters, other country codes) as typed,
    // so the server can say what is wrong with it.
    if (/[^\d\s().+\-]/.test(phone.value)) return;
    var formatted = format(phone.value);
    if (formatted !== phone.value) phone.value = formatted;
  });

  var submitted = false;
  form.addEventListener("submit", function (event) {
    if (submitted) { event.preventDefault(); return; }
    submitted = true;
    // The button pressed: Next, or "Call me with the code instead" (formaction). Not the first
    // submit button inside the form, which may be "Not you?": it belongs to the other form
    // (form="forget-form") and must keep its label.
    var button = event.submitter && event.submitter.form === form ? event.submitter : document.getElementById("next-button");
    if (button) {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
      // The page hands its script its words, in the page's language.
      button.textContent = button.getAttribute("data-busy") || button.textContent;
    }
  });
})();
