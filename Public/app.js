// RxLive page. Each form is bound to one view-model session on the server over its own
// WebSocket (see PROTOCOL.md). The page keeps no logic of its own: it sends what the user
// types and shows what the server's view model answers.

const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
// After `rate_limited` the refused value never reached the view model, so send it again later.
const RATE_LIMIT_RESEND_MS = 1000;

const byId = (id) => document.getElementById(id);

/**
 * Parses a server message. Integers beyond 2^53 (the sum of large fields) become BigInts read
 * from their own digits, so they are shown exactly: with the reviver's source text where the
 * browser gives it (JSON.parse source access), else from the output message's fixed shape,
 * `{"output":"<name>","value":<value>}` with the value last (PROTOCOL.md).
 */
export function parseServerMessage(text) {
  const exact = (key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value;
  const message = JSON.parse(text, exact);
  if (typeof message.output === "string" && typeof message.value === "number" && !Number.isSafeInteger(message.value)) {
    const digits = /,"value":(-?\d+)\}$/.exec(text);
    if (digits) message.value = BigInt(digits[1]);
  }
  return message;
}

/** The ws: or wss: URL of `path` on the host that served this page. */
function socketURL(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * Binds a form to a session at `path`. Once the server says `ready` it sends the current value of
 * every text input (as `rx.text` emits its current value on subscription), then every edit.
 * When the connection drops it reconnects with capped, jittered exponential backoff; the values
 * stay in the fields, so the new session gets them all again and its outputs come back.
 * Outputs go to `onOutput(name, value)`, session changes to `onLive(isLive)`, the code of each
 * refusal (shown in `error`) to `onRefused(code)`. Returns `tap(name)`, which sends a tap and says whether it could.
 */
function bindSession({ path, form, textInputs, status, error, onOutput, onLive, onRefused = () => {}, onEdit = () => {} }) {
  let socket = null;
  let live = false;
  let failures = 0;
  let resendTimer = 0;
  // Set when the values refused as `rate_limited` were sent again: the next output shows they got through.
  let resent = false;

  const setStatus = (state, text) => {
    status.dataset.state = state;
    status.textContent = text;
  };

  const send = (message) => {
    if (!live || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  };

  const sendAllValues = () => {
    for (const input of textInputs) send({ input: input.name, value: input.value });
  };

  const showError = (code, message) => {
    error.dataset.code = code;
    error.textContent = message;
  };

  const clearError = () => {
    resent = false;
    error.textContent = "";
    delete error.dataset.code;
  };

  const receive = (text) => {
    let message;
    try {
      message = parseServerMessage(text);
    } catch {
      showError("bad_message", "The server sent a message this page cannot read.");
      return;
    }
    if (message.ready) {
      live = true;
      failures = 0;
      setStatus("live", "Connected");
      clearError(); // refusals belonged to the old session
      onLive(true);
      sendAllValues();
    } else if (typeof message.output === "string") {
      // An answer to the resent values: the refusal no longer describes the session.
      if (resent) clearError();
      onOutput(message.output, message.value);
    } else if (message.error) {
      resent = false;
      showError(message.error.code, message.error.message);
      onRefused(message.error.code);
      if (message.error.code === "rate_limited") {
        clearTimeout(resendTimer);
        resendTimer = setTimeout(() => {
          resent = live;
          sendAllValues();
        }, RATE_LIMIT_RESEND_MS);
      }
    }
  };

  const connect = () => {
    const ws = new WebSocket(socketURL(path));
    socket = ws;
    ws.addEventListener("message", (event) => receive(event.data));
    ws.addEventListener("close", () => {
      // A failed connect and a dropped session both end here (an `error` event always precedes it).
      if (ws !== socket) return;
      live = false;
      onLive(false);
      const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** failures);
      const delay = backoff * (0.8 + Math.random() * 0.4); // jitter: clients don't retry in lockstep
      failures += 1;
      setStatus("offline", "Disconnected, reconnecting…");
      setTimeout(connect, delay);
    });
  };

  form.addEventListener("input", (event) => {
    if (!textInputs.includes(event.target)) return;
    clearError(); // a fresh edit supersedes the last refusal
    onEdit(event.target);
    send({ input: event.target.name, value: event.target.value });
  });

  setStatus("connecting", "Connecting…");
  connect();
  return { tap: (name) => send({ input: name }) };
}

/** Login: the server decides when the button is enabled and what a tap results in. */
function bindLogin() {
  const button = byId("login");
  const result = byId("login-result");
  let enabledByServer = false;
  let pending = false;

  const showResult = (state, text) => {
    result.dataset.state = state;
    result.textContent = text;
    result.setAttribute("aria-busy", String(state === "pending"));
  };

  const session = bindSession({
    path: "/ws/login",
    form: byId("login-form"),
    textInputs: [byId("username"), byId("password")],
    status: byId("login-status"),
    error: byId("login-error"),
    onOutput(name, value) {
      if (name === "isLoginButtonEnabled") {
        enabledByServer = value === true;
        button.disabled = !enabledByServer;
        // An answer was about the fields as they were; with the button off it no longer applies.
        if (!enabledByServer && !pending) showResult("idle", "");
      } else if (name === "loginResult") {
        pending = false;
        showResult(value ? "success" : "failure", value ? "Login Successful" : "Login Failed");
      }
    },
    onLive(isLive) {
      // Without a session no tap can be sent; the new session re-derives the button state.
      if (isLive) return;
      enabledByServer = false;
      button.disabled = true;
      if (pending) {
        pending = false;
        showResult("interrupted", "Connection lost before the answer. Please log in again.");
      }
    },
    onEdit() {
      // "Login Successful" describes the fields at the tap; an edit makes it history. A pending
      // answer stays: it belongs to the tap already sent.
      if (!pending) showResult("idle", "");
    },
    onRefused(code) {
      // A refused tap never answers. Errors do not say which message they refuse, so end the
      // wait; if the tap was accepted after all, its answer still replaces this text.
      if (pending && code === "rate_limited") {
        pending = false;
        showResult("interrupted", "Not sent: too many attempts. Try again in a moment.");
      }
      if (pending && code === "login_unavailable") {
        pending = false;
        showResult("interrupted", "The login service is unavailable. Try again later.");
      }
    },
  });

  byId("login-form").addEventListener("submit", (event) => {
    event.preventDefault(); // Enter in a field submits too; the tap goes over the socket, never as a page load
    if (!enabledByServer || !session.tap("loginTapped")) return;
    pending = true;
    showResult("pending", "Logging in…");
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

/** Sum: the server adds the three fields; the page shows its latest answer. */
function bindSum() {
  const sum = byId("sum");
  const form = byId("sum-form");
  new ResizeObserver(fitSum).observe(sum.parentElement);
  bindSession({
    path: "/ws/sum",
    form,
    textInputs: [byId("number1"), byId("number2"), byId("number3")],
    status: byId("sum-status"),
    error: byId("sum-error"),
    onOutput(name, value) {
      if (name !== "sum") return;
      sum.textContent = String(value);
      fitSum();
      sum.dataset.stale = "false";
    },
    onLive(isLive) {
      // Keep the last sum visible but mark it as not current until the new session answers.
      if (!isLive) sum.dataset.stale = "true";
    },
  });
  form.addEventListener("submit", (event) => event.preventDefault());
}

bindLogin();
bindSum();
