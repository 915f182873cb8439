// RxLive page, beyond what rxlive.js binds by attributes (see index.html): the login answer's
// words and states, a hint beside a number field the sum reads as 0, and the sum's font fitted
// to the card. They listen to the library's rx:* events and the fields' own input events; the
// page still keeps no logic of the view models: every output it shows comes from the server.

const byId = (id) => document.getElementById(id);

/** Login: "Logging in…" from the tap until the server's answer, and what ends that wait. */
function showLoginResults() {
  const view = document.querySelector('[data-rx-view="login"]');
  const result = byId("login-result");
  let pending = false;

  const showResult = (state, text) => {
    result.dataset.state = state;
    result.textContent = text;
    result.setAttribute("aria-busy", String(state === "pending"));
  };
  const interrupt = (text) => {
    pending = false;
    showResult("interrupted", text);
  };

  view.addEventListener("rx:tap", () => {
    pending = true;
    showResult("pending", "Logging in…");
  });
  view.addEventListener("rx:output", ({ detail: { name, value } }) => {
    if (name === "loginResult") {
      pending = false;
      showResult(value ? "success" : "failure", value ? "Login Successful" : "Login Failed");
    } else if (name === "isLoginButtonEnabled" && value !== true && !pending) {
      // An answer was about the fields as they were; with the button off it no longer applies.
      showResult("idle", "");
    }
  });
  view.addEventListener("rx:live", ({ detail: { live } }) => {
    // Without a session the tap can never be answered.
    if (!live && pending) interrupt("Connection lost before the answer. Please log in again.");
  });
  view.addEventListener("rx:error", () => {
    // A refused tap gets no loginResult: the refusal is its answer, shown in the server's own
    // words by [data-rx-error]. End the wait and add no words of the page's. Errors do not say
    // which message they refuse; if the tap was accepted after all, its answer still shows.
    if (pending) {
      pending = false;
      showResult("idle", "");
    }
  });
  view.addEventListener("input", () => {
    // "Login Successful" describes the fields at the tap; an edit makes it history. A pending
    // answer stays: it belongs to the tap already sent.
    if (!pending) showResult("idle", "");
  });
}

/**
 * Shrinks the sum's font until it fits beside its label on one line, measured in the font the
 * browser really uses (digit widths differ between fonts). Runs on every sum and every resize.
 */
function fitSum() {
  const sum = byId("sum");
  const row = sum.parentElement;
  const label = byId("sum-label");
  const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
  const room = row.clientWidth - label.offsetWidth - gap;
  sum.style.setProperty("--fit", "1");
  const needed = sum.scrollWidth;
  // Floor to 1/100: rounding up could leave the last digit a pixel outside.
  sum.style.setProperty("--fit", needed > room && needed > 0 ? String(Math.floor((room / needed) * 100) / 100) : "1");
}

// The sum view model reads each field as Swift's `Int(text) ?? 0` (PROTOCOL.md, "How the outputs
// behave"): an optional sign, ASCII digits, within 64 bits. The hint only names that reading.
const WHOLE_NUMBER = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Why the sum counts this text as 0, or "" when it reads it as written (an empty field needs no hint). */
function countsAsZeroBecause(text) {
  if (text === "") return "";
  if (!WHOLE_NUMBER.test(text)) return "not an integer: counts as 0";
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? "beyond 64 bits: counts as 0" : "";
}

/** Beside each number field: a hint while the sum counts its text as 0, and aria-invalid on the field. */
function showNumberHints() {
  const hint = (field) => {
    const why = countsAsZeroBecause(field.value);
    byId(`${field.id}-hint`).textContent = why;
    if (why) field.setAttribute("aria-invalid", "true");
    else field.removeAttribute("aria-invalid");
  };
  const fields = document.querySelectorAll('[data-rx-view="sum"] [data-rx-input]');
  for (const field of fields) field.addEventListener("input", () => hint(field));
}

/** Once signed in, the password typed for it is not kept in the page (which reloads next). */
function forgetPasswordOnSignIn() {
  document.addEventListener("rx:signedin", () => {
    byId("password").value = "";
  });
}

showLoginResults();
forgetPasswordOnSignIn();
showNumberHints();
new ResizeObserver(fitSum).observe(byId("sum").parentElement);
document.querySelector('[data-rx-view="sum"]').addEventListener("rx:output", fitSum);
