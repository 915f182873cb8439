// RxLive dashboard. Like the forms, it is a view-model session over the wire protocol
// (PROTOCOL.md, "The dashboard"): it sends the text inputs `watchSession`, `record`,
// `exportTest` and `downloadRecording`, draws the `stats` and `watch` outputs, shows `recording`
// and saves each `download` as a file. Everything is drawn here, on canvas and SVG, with no outside request.

const HISTORY = 90; // samples kept per chart: a minute and a half at one a second
const BACKOFF_FIRST_MS = 250;
const BACKOFF_MAX_MS = 5000;
import { bindRecording, showControls, showDownload, showRecording } from "/dashboard/recording.js";

const byId = (id) => document.getElementById(id);

/** The admin token: from the link rxlive logs (`#token=…`), kept for this tab only and taken out of the address bar. */
function adminToken() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromLink) {
    sessionStorage.setItem("rxlive-admin-token", fromLink);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem("rxlive-admin-token");
}

const cssColor = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const PALETTE = ["--accent", "--ok", "--warn", "--bad", "--muted"];

/** A line chart of named series over the last HISTORY samples, on a canvas, with a legend of the latest values. */
class LineChart {
  constructor(name, unit = "") {
    this.canvas = byId(`chart-${name}`);
    this.legend = byId(`legend-${name}`);
    this.unit = unit;
    this.series = new Map(); // name -> array of numbers (null: no value)
    this.points = 0;
  }

  push(values, notes = {}) {
    for (const [name, value] of Object.entries(values)) {
      if (!this.series.has(name)) this.series.set(name, new Array(this.points).fill(null));
    }
    for (const [name, data] of this.series) {
      data.push(name in values ? values[name] : null);
      if (data.length > HISTORY) data.shift();
    }
    this.points = Math.min(this.points + 1, HISTORY);
    this.canvas.dataset.points = String(this.points);
    this.canvas.dataset.latest = JSON.stringify(values);
    this.draw();
    this.drawLegend(values, notes);
  }

  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const g = canvas.getContext("2d");
    g.scale(ratio, ratio);
    g.clearRect(0, 0, width, height);
    let highest = 1;
    for (const data of this.series.values()) for (const v of data) if (v !== null && v > highest) highest = v;
    const { step, max } = integerScale(highest);
    const left = 44, right = 6, top = 8, bottom = 16;
    const plotW = width - left - right, plotH = height - top - bottom;
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = cssColor("--muted");
    g.strokeStyle = cssColor("--line");
    g.lineWidth = 1;
    for (let tick = 0; tick <= max; tick += step) {
      const y = top + plotH - (plotH * tick) / max;
      g.beginPath();
      g.moveTo(left, y);
      g.lineTo(left + plotW, y);
      g.stroke();
      g.fillText(shortNumber(tick), 2, y + 4);
    }
    g.fillText(`last ${HISTORY} s`, left, height - 3);
    let index = 0;
    for (const data of this.series.values()) {
      g.strokeStyle = cssColor(PALETTE[index % PALETTE.length]);
      g.lineWidth = 2;
      g.beginPath();
      let drawing = false;
      data.forEach((value, i) => {
        if (value === null) { drawing = false; return; }
        const x = left + (plotW * (i + HISTORY - data.length)) / (HISTORY - 1);
        const y = top + plotH - (plotH * value) / max;
        if (drawing) g.lineTo(x, y); else g.moveTo(x, y);
        drawing = true;
      });
      g.stroke();
      index += 1;
    }
  }

  drawLegend(values, notes) {
    this.legend.replaceChildren(...[...this.series.keys()].map((name, index) => {
      const item = document.createElement("li");
      item.style.setProperty("--series", `var(${PALETTE[index % PALETTE.length]})`);
      const value = values[name];
      const strong = document.createElement("strong");
      strong.textContent = value === null || value === undefined ? "–" : `${value.toLocaleString("en")}${this.unit}`;
      item.append(`${name} `, strong);
      if (notes[name]) item.append(` ${notes[name]}`);
      return item;
    }));
  }
}

/**
 * The y axis for values up to `highest` (at least 1): every stat is a whole number (PROTOCOL.md),
 * so the ticks are too. The step is the smallest of 1, 2, 5, 10, 20, 50… that reaches `highest`
 * in at most four steps; `max`, the axis top, is the first multiple of it at or above `highest`.
 */
function integerScale(highest) {
  for (let power = 1; ; power *= 10) {
    for (const step of [power, 2 * power, 5 * power]) {
      if (step * 4 >= highest) return { step, max: step * Math.ceil(highest / step) };
    }
  }
}

function shortNumber(value) {
  if (value >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${+(value / 1e3).toFixed(1)}k`;
  return String(+value.toFixed(1));
}

const charts = {
  sessions: new LineChart("sessions"),
  messages: new LineChart("messages", "/s"),
  latency: new LineChart("latency", " µs"),
  resources: new LineChart("resources"),
  loops: new LineChart("loops", "/s"),
};

function showStats(stats) {
  charts.sessions.push(stats.sessions);
  charts.messages.push({ in: stats.messagesIn, out: stats.messagesOut });
  charts.latency.push({ p50: stats.p50, p99: stats.p99 });
  charts.resources.push({ "Rx resources": stats.rxResources });
  charts.loops.push(
    Object.fromEntries(stats.loops.map((loop) => [`loop ${loop.loop}`, loop.messagesIn])),
    Object.fromEntries(stats.loops.map((loop) => [`loop ${loop.loop}`,
      `· ${loop.sessions} sessions · p50 ${loop.p50 ?? "–"} µs · p99 ${loop.p99 ?? "–"} µs`])));
  showSessions(stats.recent);
}

// ---- sessions to pick --------------------------------------------------------------------

let watchedId = "";
let pickSession = () => {};

function showSessions(recent) {
  const rows = recent.map((session) => {
    const row = document.createElement("tr");
    row.dataset.session = session.id;
    row.dataset.viewModel = session.viewModel;
    row.dataset.watched = String(session.id === watchedId);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = session.id === watchedId ? "Watching" : "Watch";
    button.addEventListener("click", () => pickSession(session.id));
    const cells = [session.id, session.viewModel, `${session.age} s`].map((text) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      return cell;
    });
    const action = document.createElement("td");
    action.append(button);
    row.append(...cells, action);
    return row;
  });
  byId("sessions").replaceChildren(...rows);
}

// ---- marbles -----------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
const LANE_HEIGHT = 46;
const NAMES_WIDTH = 170;
const MIN_GAP = 58; // px between two columns of marbles, so their labels do not overlap
const MAX_GAP = 160;
const PX_PER_SECOND = 60;
const SAME_MOMENT_US = 50000; // an output this soon after the column's input shares its column

let watch = { lanes: [], marbles: [] };

function svg(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function label(marble, lane) {
  if (marble.kind === "error") return marble.label ?? "error";
  if (lane.shape === "secret") return `len ${marble.length}`;
  if (lane.shape === "tap") return "";
  return marble.label ?? "";
}

function truncated(text) {
  return text.length > 8 ? `${text.slice(0, 7)}…` : text;
}

/** Draws the lanes (inputs above the transform box, outputs below) and the marbles by time. */
function drawMarbles() {
  const root = byId("marbles");
  const inputs = watch.lanes.filter((lane) => lane.role === "input");
  const outputs = watch.lanes.filter((lane) => lane.role === "output");
  const boxHeight = inputs.length && outputs.length ? 34 : 0;
  const laneY = new Map();
  inputs.forEach((lane, i) => laneY.set(lane.name, 24 + i * LANE_HEIGHT));
  const outputTop = 24 + inputs.length * LANE_HEIGHT + boxHeight;
  outputs.forEach((lane, i) => laneY.set(lane.name, outputTop + i * LANE_HEIGHT));

  // Columns: the time between events, squeezed into [MIN_GAP, MAX_GAP] px. Each input starts a
  // column and the outputs it causes join it (they come right after it, while the server runs the
  // graph); a lane never has two marbles in one column.
  const roles = new Map(watch.lanes.map((lane) => [lane.name, lane.role]));
  const columns = [];
  let x = NAMES_WIDTH + 24, columnTime = null, columnLanes = new Set();
  for (const marble of watch.marbles) {
    const isInput = roles.get(marble.lane) === "input" && marble.kind !== "completed";
    const startsColumn = isInput || marble.t - columnTime > SAME_MOMENT_US || columnLanes.has(marble.lane);
    if (columnTime !== null && startsColumn) {
      x += Math.min(MAX_GAP, Math.max(MIN_GAP, ((marble.t - columnTime) / 1e6) * PX_PER_SECOND));
      columnTime = null;
    }
    if (columnTime === null) {
      columnTime = marble.t;
      columnLanes = new Set();
    }
    columnLanes.add(marble.lane);
    columns.push(x);
  }
  const width = Math.max(root.parentElement.clientWidth, x + 60);
  const height = outputTop + outputs.length * LANE_HEIGHT;
  root.setAttribute("width", width);
  root.setAttribute("height", Math.max(height, 40));
  root.setAttribute("viewBox", `0 0 ${width} ${Math.max(height, 40)}`);

  const nodes = [];
  for (const lane of watch.lanes) {
    const y = laneY.get(lane.name);
    const group = svg("g", { class: "lane", "data-lane": lane.name, "data-role": lane.role, "data-shape": lane.shape });
    group.append(svg("text", { class: "lane-name", x: 4, y: y + 4 }, lane.name + (lane.shape === "secret" ? " (length)" : "")));
    group.append(svg("line", { class: "lane-line", x1: NAMES_WIDTH, y1: y, x2: width - 8, y2: y }));
    group.append(svg("path", { d: `M${width - 8} ${y} l-8 -5 v10 z`, fill: cssColor("--muted") }));
    nodes.push(group);
  }
  if (boxHeight) {
    const y = 24 + inputs.length * LANE_HEIGHT - 26; // between the last input's marbles and the first output's labels
    const box = svg("g", { class: "transform" });
    box.append(svg("rect", { x: NAMES_WIDTH, y, width: width - NAMES_WIDTH - 8, height: 26, rx: 4 }));
    box.append(svg("text", { x: NAMES_WIDTH + 10, y: y + 17 }, `${watch.viewModel}.transform(input:)`));
    nodes.push(box);
  }
  watch.marbles.forEach((marble, i) => {
    const lane = watch.lanes.find((candidate) => candidate.name === marble.lane);
    const laneGroup = lane && nodes.find((node) => node.dataset?.lane === lane.name);
    if (!laneGroup) return;
    const y = laneY.get(lane.name);
    const x = columns[i];
    const text = label(marble, lane);
    const group = svg("g", {
      class: "marble", "data-index": i, "data-x": x, "data-kind": marble.kind, "data-role": lane.role,
      "data-label": marble.label ?? "", "data-length": marble.length ?? "",
    });
    group.append(svg("title", {}, `${marble.kind} ${text}`));
    if (marble.kind === "next") {
      group.append(svg("circle", { cx: x, cy: y, r: 7 }));
      if (text) group.append(svg("text", { x, y: y - 12, "text-anchor": "middle" }, truncated(text)));
    } else if (marble.kind === "error") {
      group.append(svg("path", { class: "error-mark", d: `M${x - 7} ${y - 7} L${x + 7} ${y + 7} M${x + 7} ${y - 7} L${x - 7} ${y + 7}` }));
      group.append(svg("text", { x, y: y - 12, "text-anchor": "middle" }, truncated(text)));
    } else {
      group.append(svg("path", { class: "completed-mark", d: `M${x} ${y - 10} V${y + 10}` }));
    }
    laneGroup.append(group);
  });
  root.replaceChildren(...nodes);
  root.parentElement.scrollLeft = root.parentElement.scrollWidth;
}

function showWatch(event) {
  const state = byId("watch-state");
  if (event.watching) {
    watch = { ...event.watching, marbles: [] };
    showControls(watch);
    state.dataset.state = "watching";
    state.textContent = `Watching ${event.watching.viewModel} session ${event.watching.session}: time runs left to right; outputs sit under the input that caused them.`;
  } else if (event.marble) {
    watch.marbles.push(event.marble);
    if (event.marble.skipped) {
      watch.skipped = (watch.skipped ?? 0) + event.marble.skipped;
      state.dataset.skipped = String(watch.skipped);
      state.textContent = `Watching ${watch.viewModel} session ${watch.session}: ${watch.skipped.toLocaleString("en")} events left out (a viewer gets at most 200 a second).`;
    }
    if (watch.marbles.length > 400) watch.marbles.shift(); // a long watch keeps its latest events
  } else if (event.ended) {
    state.dataset.state = "ended";
    state.textContent = `Session ${event.ended.session} closed: every lane completed.`;
  } else if (event.notFound) {
    watch = { lanes: [], marbles: [] };
    showControls(watch);
    state.dataset.state = "notFound";
    state.textContent = `No live session has the id ${event.notFound.session}.`;
  } else if (event.stopped) {
    watch = { lanes: [], marbles: [] };
    showControls(watch);
    state.dataset.state = "stopped";
    state.textContent = "Pick a session to see its inputs and outputs as they happen.";
  }
  drawMarbles();
}

// ---- the session -------------------------------------------------------------------------

function connect() {
  const status = byId("status");
  const notice = byId("notice");
  const input = byId("watchSession");
  const token = adminToken();
  const setStatus = (state, text) => {
    status.dataset.state = state;
    status.textContent = text;
  };
  if (!token) {
    setStatus("offline", "No admin token");
    notice.textContent = "Open the dashboard with the link rxlive logs when it starts (…/dashboard#token=…).";
    return;
  }
  let socket = null;
  let failures = 0;
  bindRecording(() => watch, (name, value) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ input: name, value }));
  });
  const sendWatch = () => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ input: "watchSession", value: input.value }));
  };
  pickSession = (id) => {
    input.value = id;
    watchedId = id;
    sendWatch();
  };
  input.addEventListener("input", () => {
    watchedId = input.value.trim();
    sendWatch();
  });
  byId("watch-form").addEventListener("submit", (event) => event.preventDefault());

  const open = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/dashboard?token=${encodeURIComponent(token)}`);
    socket = ws;
    ws.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.ready) {
        failures = 0;
        notice.textContent = "";
        setStatus("live", `Connected (session ${message.ready.session})`);
        sendWatch(); // the text input's current value, as every session starts
      } else if (message.output === "stats") {
        showStats(message.value);
      } else if (message.output === "watch") {
        showWatch(message.value);
      } else if (message.output === "recording") {
        showRecording(message.value);
      } else if (message.output === "download") {
        showDownload(message.value);
      } else if (message.error) {
        notice.textContent = message.error.message;
      }
    });
    ws.addEventListener("close", (event) => {
      if (ws !== socket) return;
      if (event.code === 1008) {
        setStatus("offline", "Token refused");
        notice.textContent = "The server refused this admin token; open the link rxlive logged at start.";
        sessionStorage.removeItem("rxlive-admin-token");
        return;
      }
      const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** failures);
      failures += 1;
      setStatus("offline", "Disconnected, reconnecting… (is the dashboard on? see --dashboard)");
      setTimeout(open, backoff * (0.8 + Math.random() * 0.4));
    });
  };
  setStatus("connecting", "Connecting…");
  open();
}

connect();
