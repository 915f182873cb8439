// Every rx:* event of every container, in order, for the test to read.
window.events = [];
for (const type of ["ready", "output", "error", "live", "tap"]) {
  document.addEventListener(`rx:${type}`, (event) => window.events.push({
    type, view: event.target.id,
    detail: JSON.parse(JSON.stringify(event.detail, (k, v) => typeof v === "bigint" ? String(v) : v)),
  }));
}
