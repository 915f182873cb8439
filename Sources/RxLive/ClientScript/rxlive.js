/**
 * rxlive.js: binds HTML to RxLive view models by attributes. One ES module, no dependencies,
 * no build step; the full guide is docs/CLIENT.md, the wire protocol docs/PROTOCOL.md.
 *
 *   data-rx-view="sum"         on a container: one session of that view model at /ws/sum, bound
 *                              when the page loads (data-rx-url="/other/path" or "wss://…" overrides)
 *   data-rx-input="name"       on input/textarea/select: sends its value on every edit (`input`;
 *                              `change` for choices) and after every (re)connect: the text; a
 *                              select's value; a checkbox's `checked`; a radio
 *                              group's checked value or null; data-rx-type="number" a JSON number
 *                              (null when empty or not a number); data-rx-type="json" the field
 *                              parsed as JSON (not sent while invalid, then aria-invalid="true")
 *   data-rx-tap="name"         sends a tap on click; a form submit (Enter, a submit button,
 *                              requestSubmit) sends the tap of its submit button, or of the form's
 *                              first submit button when that is enabled. Forms never load a page.
 *   data-rx-status             shows the connection: data-state connecting|live|offline and a text
 *   data-rx-error              shows the last refusal: its message, data-code="<code>"; gone after
 *                              the next edit or session, the answer to values resent after
 *                              `rate_limited`, or the wait a refusal's `retryAfter` names
 *
 * Outputs. Each value is a path: an output's name, then dotted steps into its value (object keys,
 * array indices, `length`); `*` steps into whichever case of a Swift enum is present and `$case`
 * gives the case's name ({"failed":{"message":"x"}}: `v.$case` is "failed", `v.*.message` and
 * `v.failed.message` are "x", `v.valid` is absent). A leading `!` negates.
 *   data-rx-text="path"        textContent: strings as they are, numbers with all digits, booleans
 *                              as true/false, null or absent as empty, objects and arrays as JSON
 *   data-rx-enabled="path"     disabled = !value      data-rx-visible="path"   hidden = !value
 *   data-rx-class-<cls>="path" toggles class <cls>    data-rx-attr-<attr>="path" sets <attr> to the
 *                              value as text, "" for true, removes it for null, absent or false
 *   data-rx-list="path"        renders an array through the element's <template> child, whose
 *                              bindings take paths relative to the item ("." is the item itself)
 * Signing in (the page's, not one view's; PROTOCOL.md "Signing in"):
 *   data-rx-user               textContent: the signed-in user's name, empty when nobody is
 *   data-rx-signed-in          shown only while someone is signed in; data-rx-signed-out only
 *                              while nobody is (both hidden until the first session says which)
 *   data-rx-logout             on a button: logs out (="everywhere": every session of the user)
 *   data-rx-needs-sign-in      on a data-rx-view container: bound only while someone is signed in
 *                              (its view model answers anyone else 401), closed at the sign-out
 * A right login's {"signIn"} code is posted in a form to /auth/session, whose redirect brings the
 * page back with the session cookie, signed in; log out posts to /auth/logout the same way. A
 * {"signedOut"} (a log out in another tab or instance) shows the signed-out state, and the
 * sessions reconnect anonymously. The cookie is HttpOnly: this script never sees the token.
 * Events on document: rx:signedin {user} (just before the post), rx:signedout {reason}.
 * False are: false, null, absent, 0, "" and []; anything else is true ({} too, a case's payload).
 * Bound elements get data-stale="true" while their session is down, "false" once their output
 * arrives again. Taps are disabled while there is no session.
 *
 * Events on the container (they bubble): rx:ready {ready}, rx:output {name, value}, rx:error
 * {code, message, retryAfter}, rx:live {live}, rx:tap {name}.
 * Script: bind(element, {view, url, statusText}) binds one container (again: the same handle) and
 * returns {tap(name), send(name, value), reconnect(), close(), live}; logOut({everywhere}).
 */

const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
// After `rate_limited` without `retryAfter` the refused value never reached the view model, so
// send it again later. With `retryAfter` the refusal answers a tap (PROTOCOL.md): nothing to resend.
const RATE_LIMIT_RESEND_MS = 1000;
const STATUS_TEXT = { connecting: "Connecting…", live: "Connected", offline: "Disconnected, reconnecting…" };
const OUTPUT_KIND = /^(text|enabled|visible|list|class-.+|attr-.+)$/;
const sessions = new WeakMap();
/** Every bound session's handle: a page leaving for another (a sign-in's form post) closes them. */
const handles = new Set();

/** Shows who is signed in (a name, or null for nobody) on the page's sign-in elements. */
function showSignedIn(user) {
  if (typeof document === "undefined") return;
  for (const element of document.querySelectorAll("[data-rx-user]")) element.textContent = user ?? "";
  for (const element of document.querySelectorAll("[data-rx-signed-in]")) element.hidden = user === null;
  for (const element of document.querySelectorAll("[data-rx-signed-out]")) element.hidden = user !== null;
  for (const container of document.querySelectorAll("[data-rx-view][data-rx-needs-sign-in]")) {
    if (user !== null) bind(container);
    else sessions.get(container)?.close();
  }
}

const emitOnDocument = (type, detail) => document.dispatchEvent(new CustomEvent(`rx:${type}`, { detail }));

/**
 * Posts a form to `action` with `fields` and the page's own path to come back to: the server
 * answers with a redirect that sets or deletes the session cookie, and the page reloads signed
 * in or out (a form post is what the page's Content-Security-Policy allows: form-action 'self').
 */
function postAndReturn(action, fields) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  form.hidden = true;
  for (const [name, value] of Object.entries({ ...fields, return: location.pathname + location.search })) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/** Redeems a right login's one-time code for the session cookie; the page comes back signed in. */
function redeemSignIn(user, code) {
  emitOnDocument("signedin", { user });
  postAndReturn("/auth/session", { code });
}

/** Logs out this browser's sign-in (everywhere: all of the user's); the page comes back signed out. */
export function logOut({ everywhere = false } = {}) {
  postAndReturn(everywhere ? "/auth/logout-everywhere" : "/auth/logout", {});
}

/** Turns an integer beyond 2^53 into a BigInt from its source text, where JSON.parse gives it. */
const exact = (key, value, context) =>
  typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
    ? BigInt(context.source)
    : value;

/**
 * Parses a server message. Integers beyond 2^53 (the sum of large fields) become BigInts read from
 * their own digits, so they are shown exactly: with the reviver's source text where the browser
 * gives it (JSON.parse source access), else from the output message's fixed shape,
 * `{"output":"<name>","value":<value>}` with the value last (PROTOCOL.md).
 */
export function parseServerMessage(text) {
  const message = JSON.parse(text, exact);
  if (typeof message.output === "string" && typeof message.value === "number" && !Number.isSafeInteger(message.value)) {
    const digits = /,"value":(-?\d+)\}$/.exec(text);
    if (digits) message.value = BigInt(digits[1]);
  }
  return message;
}

/** JSON text of a value; a BigInt keeps its digits where the browser has JSON.rawJSON. */
export function toJSON(value) {
  return JSON.stringify(value, (key, v) =>
    typeof v === "bigint" ? (JSON.rawJSON ? JSON.rawJSON(String(v)) : Number(v)) : v);
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** The case of a Swift enum as Codable encodes it: a one-key object's key, or a raw-value string. */
export function caseName(value) {
  if (typeof value === "string") return value;
  const keys = isObject(value) ? Object.keys(value) : [];
  return keys.length === 1 ? keys[0] : undefined;
}

/** Splits a binding's value: "!a.b" is {negate: true, path: ["a", "b"]}; "." is the value itself. */
export function parsePath(text) {
  const negate = text.trim().startsWith("!");
  const rest = text.trim().slice(negate ? 1 : 0).trim();
  return { negate, path: rest === "." || rest === "" ? [] : rest.split(".") };
}

/** The value at `path` inside `value`, undefined when a step finds nothing. */
export function readPath(value, path) {
  for (const step of path) {
    if (step === "$case") value = caseName(value);
    else if (step === "*") value = isObject(value) && caseName(value) !== undefined ? value[caseName(value)] : undefined;
    else value = value !== null && typeof value === "object" && Object.hasOwn(value, step) ? value[step] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

/** How a value reads as text (see the header). */
export function displayText(value) {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? toJSON(value) : String(value);
}

/** Whether a value counts as true for enabled, visible, class and attribute bindings. */
export function isTruthy(value) {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

/** The output bindings of `root` (an element or fragment) and below, except what lists render. */
export function collectBindings(root) {
  const bindings = [];
  const visit = (element) => {
    for (const { name, value } of element.attributes ?? []) {
      const kind = name.startsWith("data-rx-") ? name.slice("data-rx-".length) : "";
      if (OUTPUT_KIND.test(kind)) bindings.push({ element, kind, ...parsePath(value) });
    }
    if (element.hasAttribute?.("data-rx-list")) return; // its items are bound item by item
    for (const child of element.children) visit(child);
  };
  visit(root);
  return bindings;
}

/** Shows `value` (already read from the binding's path) on the binding's element. */
export function applyBinding({ element, kind, negate }, value) {
  if (negate) value = !isTruthy(value);
  if (kind === "text") element.textContent = displayText(value);
  else if (kind === "enabled") element.disabled = !isTruthy(value);
  else if (kind === "visible") element.hidden = !isTruthy(value);
  else if (kind === "list") renderList(element, Array.isArray(value) ? value : []);
  else if (kind.startsWith("class-")) element.classList.toggle(kind.slice("class-".length), isTruthy(value));
  else if (value === null || value === undefined || value === false) element.removeAttribute(kind.slice("attr-".length));
  else element.setAttribute(kind.slice("attr-".length), value === true ? "" : displayText(value));
}

/** Replaces the list's items: one copy of its <template> per item, bound relative to the item. */
function renderList(element, items) {
  const template = [...element.children].find((child) => child.localName === "template");
  if (!template) return;
  const copies = items.map((item) => {
    const copy = template.content.cloneNode(true);
    for (const binding of collectBindings(copy)) applyBinding(binding, readPath(item, binding.path));
    return copy;
  });
  element.replaceChildren(template, ...copies);
}

/** Shows one output of a session on every binding below `root` that names it. */
export function renderOutput(root, name, value) {
  for (const binding of collectBindings(root)) {
    if (binding.path[0] !== name) continue;
    applyBinding(binding, readPath(value, binding.path.slice(1)));
    if (binding.element.dataset.stale !== "false") binding.element.dataset.stale = "false";
  }
}

/** The value an input sends (see the header); undefined when there is nothing to send. */
export function inputValue(element) {
  if (element.type === "checkbox") return element.checked;
  if (element.type === "radio") return element.checked ? element.value : null;
  const text = element.value;
  if (element.dataset.rxType === "number") {
    if (/^\s*-?\d+\s*$/.test(text) && !Number.isSafeInteger(Number(text))) return BigInt(text.trim());
    return text.trim() === "" || !Number.isFinite(Number(text)) ? null : Number(text);
  }
  if (element.dataset.rxType !== "json") return text;
  try {
    const value = JSON.parse(text, exact);
    element.removeAttribute("aria-invalid");
    return value;
  } catch {
    element.setAttribute("aria-invalid", "true");
    return undefined;
  }
}

/**
 * Binds `container` to one session of a view model (options.view, else its data-rx-view) at
 * options.url, else its data-rx-url, else /ws/<view>. Once the server says `ready` it sends the
 * current value of every input, then every edit; when the connection drops it reconnects with
 * capped, jittered exponential backoff and the new session gets the values again.
 */
export function bind(container, options = {}) {
  if (sessions.has(container)) return sessions.get(container);
  const view = options.view ?? container.dataset.rxView;
  // A path is on the host that served the page; http(s) becomes ws(s).
  const url = new URL(options.url ?? container.dataset.rxUrl ?? `/ws/${encodeURIComponent(view)}`, location.href);
  url.protocol = url.protocol.replace(/^http/, "ws");
  const statusText = { ...STATUS_TEXT, ...options.statusText };
  const listening = new AbortController();
  const sentByScript = new Map(); // handle.send values, recovered like the fields' values
  const offlineDisabled = new Set();
  let socket = null;
  let live = false;
  let closed = false;
  let failures = 0;
  // reconnect: the next connect; resend: the values after a refused one; refusal: the end of the
  // wait a refusal's retryAfter names, when its words no longer hold.
  const timers = { reconnect: 0, resend: 0, refusal: 0 };
  // Set when the values refused as `rate_limited` were sent again: the next output shows they got through.
  let resent = false;

  const all = (selector) => [...container.querySelectorAll(selector)];
  const emit = (type, detail) => container.dispatchEvent(new CustomEvent(`rx:${type}`, { detail, bubbles: true }));
  const setStatus = (state) => {
    for (const status of all("[data-rx-status]")) {
      status.dataset.state = state;
      status.textContent = statusText[state];
    }
  };
  // Shows a refusal on every [data-rx-error]; without a code, clears it.
  const showError = (code, message = "") => {
    resent = false;
    clearTimeout(timers.refusal);
    for (const error of all("[data-rx-error]")) {
      error.textContent = message;
      if (code) error.dataset.code = code;
      else delete error.dataset.code;
    }
  };

  const send = (message) => {
    if (!live || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(toJSON(message));
    return true;
  };
  const currentValues = () => {
    const values = new Map(sentByScript);
    for (const input of all("[data-rx-input]")) {
      const name = input.dataset.rxInput;
      // A radio group sends its checked button's value, or null when none is checked.
      if (input.type === "radio" && !input.checked && values.has(name)) continue;
      const value = inputValue(input);
      if (value !== undefined) values.set(name, value);
    }
    return values;
  };
  const sendAllValues = () => {
    for (const [name, value] of currentValues()) send({ input: name, value });
  };

  const setLive = (isLive) => {
    live = isLive;
    if (isLive) {
      // Taps this session disabled come back, except those whose output decides.
      for (const tap of offlineDisabled) if (!tap.hasAttribute("data-rx-enabled")) tap.disabled = false;
      offlineDisabled.clear();
    } else {
      for (const tap of all("[data-rx-tap]")) {
        if (tap.disabled === false) offlineDisabled.add(tap);
        if ("disabled" in tap) tap.disabled = true;
      }
      for (const { element } of collectBindings(container)) element.dataset.stale = "true";
    }
    emit("live", { live: isLive });
  };

  const warnAboutNames = (ready) => {
    const inputs = ready.inputs ?? {};
    const outputs = new Set(ready.outputs ?? []);
    const unknown = [
      ...all("[data-rx-input]").map((e) => e.dataset.rxInput).filter((n) => !inputs[n] || inputs[n] === "tap"),
      ...all("[data-rx-tap]").map((e) => e.dataset.rxTap).filter((n) => inputs[n] !== "tap"),
      ...collectBindings(container).map((b) => b.path[0]).filter((n) => !outputs.has(n)),
    ];
    if (unknown.length) console.warn(`rxlive: ${ready.viewModel} has no such inputs, taps or outputs: ${[...new Set(unknown)].join(", ")}`);
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
      failures = 0;
      setStatus("live");
      showError(); // refusals belonged to the old session
      warnAboutNames(message.ready);
      showSignedIn(message.ready.user ?? null);
      emit("ready", { ready: message.ready });
      setLive(true);
      sendAllValues();
    } else if (typeof message.output === "string") {
      // An answer to the resent values: the refusal no longer describes the session.
      if (resent) showError();
      renderOutput(container, message.output, message.value);
      emit("output", { name: message.output, value: message.value });
    } else if (message.signIn) {
      redeemSignIn(message.signIn.user, message.signIn.code);
    } else if (message.signedOut) {
      // The server closes this session next (4001) and it reconnects anonymously.
      showSignedIn(null);
      emitOnDocument("signedout", { reason: message.signedOut.reason });
    } else if (message.error) {
      const { code, message: text, retryAfter } = message.error;
      showError(code, text);
      emit("error", { code, message: text, retryAfter });
      if (Number.isFinite(retryAfter)) {
        timers.refusal = setTimeout(() => showError(), retryAfter * 1000);
      } else if (code === "rate_limited") {
        clearTimeout(timers.resend);
        timers.resend = setTimeout(() => {
          resent = live;
          sendAllValues();
        }, RATE_LIMIT_RESEND_MS);
      }
    }
  };

  const connect = () => {
    const ws = new WebSocket(url);
    socket = ws;
    // A session replaced by reconnect() may still deliver a message or two: not this one's.
    ws.addEventListener("message", (event) => {
      if (ws === socket) receive(event.data);
    });
    ws.addEventListener("close", () => {
      // A failed connect and a dropped session both end here (an `error` event always precedes it).
      if (ws !== socket || closed) return;
      setLive(false);
      const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** failures);
      const delay = backoff * (0.8 + Math.random() * 0.4); // jitter: clients don't retry in lockstep
      failures += 1;
      setStatus("offline");
      timers.reconnect = setTimeout(connect, delay);
    });
  };

  const tap = (name) => {
    const sent = send({ input: name });
    if (sent) emit("tap", { name });
    return sent;
  };
  const on = (type, listener) => container.addEventListener(type, listener, { signal: listening.signal });
  const edited = (event) => {
    const input = event.target.closest?.("[data-rx-input]");
    if (!input || !container.contains(input)) return;
    // A choice (select, checkbox, radio) is sent on `change`, which every way of choosing fires; text on `input`.
    const choice = input.localName === "select" || input.type === "checkbox" || input.type === "radio";
    if (choice !== (event.type === "change")) return;
    showError(); // a fresh edit supersedes the last refusal
    const value = inputValue(input);
    if (value !== undefined) send({ input: input.dataset.rxInput, value });
  };
  on("input", edited);
  on("change", edited);
  on("click", (event) => {
    const button = event.target.closest?.("[data-rx-tap]");
    // A submit button's click submits its form; the submit sends the tap.
    if (!button || !container.contains(button) || (button.form && button.type === "submit")) return;
    event.preventDefault();
    tap(button.dataset.rxTap);
  });
  on("submit", (event) => {
    event.preventDefault(); // Enter in a field submits too; taps go over the socket, never as a page load
    const button = event.submitter ?? event.target.querySelector("button:not([type]), [type=submit]");
    if (button?.dataset.rxTap && !button.disabled) tap(button.dataset.rxTap);
  });

  const handle = {
    tap,
    /** Ends this session and opens a new one at once. */
    reconnect() {
      if (closed) return;
      clearTimeout(timers.reconnect);
      const old = socket;
      failures = 0;
      setLive(false);
      setStatus("connecting");
      connect();
      old?.close();
    },
    send(name, value) {
      sentByScript.set(name, value);
      return send({ input: name, value });
    },
    close() {
      closed = true;
      live = false;
      clearTimeout(timers.reconnect);
      clearTimeout(timers.resend);
      clearTimeout(timers.refusal);
      listening.abort();
      socket.close();
      sessions.delete(container);
      handles.delete(handle);
    },
    get live() {
      return live;
    },
  };
  sessions.set(container, handle);
  handles.add(handle);
  setStatus("connecting");
  connect();
  return handle;
}

/** Binds every [data-rx-view] below `root` that is not bound yet (but those that need a sign-in); returns their handles. */
export function bindAll(root = document) {
  // A view for signed-in users waits for a session to say someone is (showSignedIn).
  return [...root.querySelectorAll("[data-rx-view]:not([data-rx-needs-sign-in])")].map((container) => bind(container));
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => bindAll());
  else bindAll();
  // A page the browser keeps in its back/forward cache keeps its sockets open unless told, so
  // its sessions would outlive it: close them when it is hidden, open new ones if it comes back.
  window.addEventListener("pagehide", () => {
    for (const handle of [...handles]) handle.close();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) bindAll();
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-rx-logout]");
    if (!button) return;
    event.preventDefault();
    logOut({ everywhere: button.dataset.rxLogout === "everywhere" });
  });
}
