// The dashboard's Record, Export as test and Download recording controls (RECORDING.md, "From
// the dashboard"): Record sends `record` with the watched session's view model (empty to stop),
// the other two send the watched session's id as `exportTest` or `downloadRecording`; the server
// answers with the `recording` and `download` outputs.

const byId = (id) => document.getElementById(id);
const NOT_RECORDING = "Not recording. Record records the sessions of the watched view model that open from then on, each from its start.";

let recordingViewModel = null; // whose new sessions the server records (the `recording` output)
let watched = () => ({});
let send = () => {};

/** Whether the Record button stops: it names the view model being recorded. */
function stops(watch) {
  return Boolean(recordingViewModel) && (recordingViewModel === watch.viewModel || !watch.viewModel);
}

/** The buttons for the watched session `watch` ({session, viewModel} while watching). */
export function showControls(watch) {
  const toggle = byId("record-toggle");
  toggle.disabled = !watch.viewModel && !recordingViewModel;
  toggle.textContent = stops(watch) ? `Stop recording ${recordingViewModel} sessions` : `Record new ${watch.viewModel ?? ""} sessions`;
  byId("export-test").disabled = !watch.session;
  byId("download-recording").disabled = !watch.session;
}

/** The `recording` output: whose new sessions are recorded, and why a request failed. */
export function showRecording(control) {
  recordingViewModel = control.viewModel;
  const state = byId("recording-state");
  state.dataset.viewModel = control.viewModel ?? "";
  state.textContent = control.viewModel
    ? `Recording every ${control.viewModel} session that opens from now on, from its start (sessions already open are not recorded: reload their page).`
    : NOT_RECORDING;
  if (control.error) byId("notice").textContent = control.error;
  showControls(watched());
}

/** The `download` output: saved as a file of its name, or why there is none. */
export function showDownload(download) {
  const state = byId("download-state");
  if (download.error) {
    state.dataset.state = "failed";
    state.textContent = download.error;
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([download.text], { type: "text/plain;charset=utf-8" }));
  link.download = download.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  state.dataset.state = "saved";
  state.dataset.file = download.fileName;
  state.textContent = `Saved ${download.fileName} (session ${download.session}).`;
}

/** Binds the buttons once: `current` gives the watched session, `sendInput(name, value)` sends. */
export function bindRecording(current, sendInput) {
  watched = current;
  send = sendInput;
  byId("record-toggle").addEventListener("click", () => {
    const watch = watched();
    send("record", stops(watch) ? "" : watch.viewModel);
  });
  const ask = (input, what) => {
    const watch = watched();
    const state = byId("download-state");
    state.dataset.state = "asked";
    state.textContent = `Making the ${what} of session ${watch.session}…`;
    send(input, watch.session);
  };
  byId("export-test").addEventListener("click", () => ask("exportTest", "test"));
  byId("download-recording").addEventListener("click", () => ask("downloadRecording", "recording"));
}
