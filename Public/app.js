// RxLive page, beyond what rxlive.js binds by attributes (see index.html): the login answer's
// words and states, and the sum's font fitted to the card. Both listen to the library's rx:*
// events on their view's container; the page still keeps no logic of the view models.

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
  view.addEventListener("rx:error", ({ detail: { code } }) => {
    // A refused tap never answers. Errors do not say which message they refuse, so end the
    // wait; if the tap was accepted after all, its answer still replaces this text.
    if (pending && code === "rate_limited") interrupt("Not sent: too many attempts. Try again in a moment.");
    if (pending && code === "login_unavailable") interrupt("The login service is unavailable. Try again later.");
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

showLoginResults();
new ResizeObserver(fitSum).observe(byId("sum").parentElement);
document.querySelector('[data-rx-view="sum"]').addEventListener("rx:output", fitSum);
