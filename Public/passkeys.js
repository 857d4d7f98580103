// Passkeys: signing in with one on Login (the browser's own suggestion in the phone field,
// and the button), and creating one (Home's offer, "Your devices"). The options come from the
// server as JSON; the browser's answer goes back in an ordinary form post, so it lands like
// every other form. A browser without WebAuthn runs none of this, and sees no passkey UI.
(function () {
  "use strict";
  var form = document.getElementById("passkey-form");
  if (!form || !window.PublicKeyCredential || !navigator.credentials) return;
  var status = document.getElementById("passkey-status");
  var box = document.getElementById("passkey-signin") || document.getElementById("passkey-offer") ||
    document.getElementById("passkey-add");
  if (!box) return;

  function bytes(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var binary = atob(base64), out = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out.buffer;
  }

  function text(buffer) {
    var view = new Uint8Array(buffer), binary = "";
    for (var i = 0; i < view.length; i++) binary += String.fromCharCode(view[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // The answer as PublicKeyCredential.toJSON() gives it (WebAuthn Level 3), made by hand where
  // the browser has no toJSON yet.
  function answer(credential) {
    var response = credential.response, json = {
      id: credential.id, rawId: text(credential.rawId), type: credential.type,
      response: { clientDataJSON: text(response.clientDataJSON) }
    };
    if (response.attestationObject) json.response.attestationObject = text(response.attestationObject);
    if (response.authenticatorData) {
      json.response.authenticatorData = text(response.authenticatorData);
      json.response.signature = text(response.signature);
      json.response.userHandle = response.userHandle ? text(response.userHandle) : null;
    }
    return JSON.stringify(json);
  }

  function say(sentence) {
    if (status) status.textContent = sentence || "";
  }

  // Options, fresh for each ceremony; a refusal (a limit) comes as {"message": …}.
  function options() {
    return fetch(form.getAttribute("data-options"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "csrf=" + encodeURIComponent(form.elements.csrf.value)
    }).then(function (reply) {
      return reply.json().then(function (body) {
        if (!reply.ok) throw { said: body.message };
        return body;
      });
    });
  }

  var sent = false;
  function send(credential) {
    if (!credential || sent) return;
    sent = true;
    form.elements.credential.value = answer(credential);
    form.submit();
  }

  // Why the ceremony ended without a passkey: the person closed the prompt (or it timed out),
  // another ceremony took over, the server refused the options, or the browser could not.
  function failed(error, button, label) {
    if (button) {
      button.disabled = false;
      button.textContent = label;
    }
    if (error && error.name === "AbortError") return;
    if (error && error.said) return say(error.said);
    // Creating one on a device that already keeps this person's passkey (excludeCredentials).
    if (error && error.name === "InvalidStateError" && box.hasAttribute("data-exists")) {
      return say(box.getAttribute("data-exists"));
    }
    say(error && error.name === "NotAllowedError" ? box.getAttribute("data-cancelled") : box.getAttribute("data-failed"));
  }

  if (form.getAttribute("data-ceremony") === "get") {
    var button = document.getElementById("passkey-button"), label = button.textContent, suggestion = null;
    box.hidden = false;
    // What a page says where passkeys cannot be used (the console's proof), no longer true here.
    var unavailable = document.getElementById("passkey-unavailable");
    if (unavailable) unavailable.hidden = true;
    // The browser's own suggestion in the phone field (conditional mediation), where offered;
    // not on Login shown again after a refusal, where a suggestion that signs in by itself
    // would only be refused again.
    if (PublicKeyCredential.isConditionalMediationAvailable && !box.hasAttribute("data-no-suggestion")) {
      PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
        if (!available) return;
        suggestion = new AbortController();
        var signal = suggestion.signal;
        options().then(function (publicKey) {
          publicKey.challenge = bytes(publicKey.challenge);
          return navigator.credentials.get({ mediation: "conditional", publicKey: publicKey, signal: signal });
        }).then(send, function () {});
      }, function () {});
    }
    button.addEventListener("click", function () {
      if (button.disabled) return;
      if (suggestion) suggestion.abort();
      button.disabled = true;
      button.textContent = box.getAttribute("data-waiting");
      say("");
      options().then(function (publicKey) {
        publicKey.challenge = bytes(publicKey.challenge);
        return navigator.credentials.get({ publicKey: publicKey });
      }).then(send).catch(function (error) { failed(error, button, label); });
    });
    return;
  }

  var create = document.getElementById("passkey-create");
  if (!create) return;
  var createLabel = create.textContent;
  create.addEventListener("click", function () {
    if (create.disabled) return;
    create.disabled = true;
    create.textContent = create.getAttribute("data-busy");
    say("");
    options().then(function (publicKey) {
      publicKey.challenge = bytes(publicKey.challenge);
      publicKey.user.id = bytes(publicKey.user.id);
      publicKey.excludeCredentials = publicKey.excludeCredentials.map(function (credential) {
        return { type: credential.type, id: bytes(credential.id) };
      });
      return navigator.credentials.create({ publicKey: publicKey });
    }).then(send).catch(function (error) { failed(error, create, createLabel); });
  });
  // Home offers a passkey only where this device itself can keep one (Face ID, a fingerprint,
  // the screen lock); "Your devices" offers it wherever WebAuthn is (a security key, a phone).
  if (box.hasAttribute("data-platform-only")) {
    var check = PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable;
    if (!check) return;
    check.call(PublicKeyCredential).then(function (available) { box.hidden = !available; }, function () {});
  } else {
    box.hidden = false;
    var unavailableHere = document.getElementById("passkey-unavailable");
    if (unavailableHere) unavailableHere.hidden = true;
    // "Your devices": the passkeys section, hidden where nothing could be added to it.
    var section = document.getElementById("passkeys-section");
    if (section) section.hidden = false;
  }
})();
