// The computer's Web Worker (a module worker): one search at a time, answered by token. The page
// sends the compiled WebAssembly.Module first, then requests; it stops a search by terminating
// the worker. Bundled with the wasm-bindgen glue by scripts/build-client.sh. The protocol is
// described in client/worker/src/lib.rs and docs/architecture.md.
import { initSync, think } from './client_worker.js';

onmessage = ({ data }) => {
  if (data.module) {
    initSync({ module: data.module });
    return;
  }
  const { token } = data;
  try {
    const r = think(data.game, data.maxTurns, data.rules ?? '', data.record, data.pending, data.level, data.seed,
      data.movetime);
    postMessage({ token, turn: r.turn, nodes: r.nodes, depth: r.depth, score: r.score, ms: r.ms });
    r.free();
  } catch (e) {
    postMessage({ token, error: String(e) });
  }
};
