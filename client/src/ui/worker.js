// The computer's Web Worker seen from the page (ui/computer.rs drives it). The worker's script
// and wasm, named in index.html's <body data-worker data-worker-wasm>, are fetched once and kept
// in memory — the script as a blob: URL, the wasm compiled — so that every later worker, after a
// search was stopped by terminating its worker, starts without any request.
let assets;

function load() {
  const { worker, workerWasm } = document.body.dataset;
  assets ??= Promise.all([
    fetch(worker).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${worker}: ${r.status}`)))),
    WebAssembly.compileStreaming(fetch(workerWasm)),
  ]).then(([text, module]) => [URL.createObjectURL(new Blob([text], { type: 'text/javascript' })), module]);
  assets.catch(() => { assets = undefined; });
  return assets;
}

/** Starts a worker. `report(token, turn, nodes, ms)` gets its answers (no turn: the search
 * failed) and `report(-1)` its crash. */
export async function startWorker(report) {
  const [url, module] = await load();
  const w = new Worker(url, { type: 'module' });
  w.onmessage = ({ data }) => report(data.token, data.turn, data.nodes ?? 0, data.ms ?? 0);
  w.onerror = () => report(-1);
  w.postMessage({ module });
  return w;
}

/** Sends a search request (the protocol: client/worker/src/lib.rs). */
export function ask(w, token, game, maxTurns, rules, record, pending, level, seed, movetime) {
  w.postMessage({ token, game, maxTurns, rules, record, pending, level, seed, movetime });
}

/** Stops a worker and its search. */
export function stop(w) {
  w.terminate();
}
