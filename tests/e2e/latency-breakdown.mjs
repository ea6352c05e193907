// Where a move's milliseconds go, from the click in one browser to the other's board: not a test
// (the suite's figure is remote.test.mjs's « move → opponent's board updated »), a measurement to
// rerun at will. Two contexts meet in a Méta Morpion room and play 40 moves; each page notes when
// it hands bytes to its data channel, when bytes arrive and when its board changes:
//
//   node tests/e2e/latency-breakdown.mjs   (after ./scripts/build-client.sh and a release relay)
//
// click → send: the mover's page (the move signed, folded, saved, drawn); send → arrival: the
// data channel between the two renderer processes; arrival → board: the receiver (the entry
// verified and folded, the view and the DOM).
import { startRelay, launchBrowser, cell, median, META_GAME } from './harness.mjs';
import { roomKit } from './rooms.mjs';

const ctx = {};
const { player, createRoom, join, watchBoard, clickAt } = roomKit(ctx, { connect: [], latency: [] });
ctx.relay = await startRelay();
ctx.browser = await launchBrowser();
const init = () => {
  window.__sent = [];
  window.__arrived = [];
  const now = () => performance.timeOrigin + performance.now();
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    window.__sent.push(now());
    return send.call(this, data);
  };
  const onmessage = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, 'onmessage');
  Object.defineProperty(RTCDataChannel.prototype, 'onmessage', {
    get() { return onmessage.get.call(this); },
    set(f) { onmessage.set.call(this, f && ((e) => { window.__arrived.push(now()); return f(e); })); },
  });
};
try {
  const h = await player(undefined, { init });
  const g = await player(undefined, { init });
  const { link } = await createRoom(h.page, 'meta');
  await join(g.page, h.page, link);
  await watchBoard(h.page);
  await watchBoard(g.page);
  const rows = [];
  let [mover, other] = [h.page, g.page];
  for (const move of META_GAME.trim().split(/\s+/).slice(0, 40)) {
    await mover.locator('main[data-my-turn="true"]').waitFor();
    // The heartbeats and the save of the last move are over: only the move is measured.
    await new Promise((r) => setTimeout(r, 150));
    const [changes, arrived] = await other.evaluate(() => [window.__boardChanges.length, window.__arrived.length]);
    const sent = await mover.evaluate(() => window.__sent.length);
    const click = await clickAt(mover, `[data-cell="${cell(move)}"]`);
    await other.waitForFunction((n) => window.__boardChanges.length > n, changes);
    const send = await mover.evaluate((n) => window.__sent[n], sent);
    const arrival = await other.evaluate((n) => window.__arrived[n], arrived);
    const board = await other.evaluate((n) => window.__boardChanges[n], changes);
    rows.push({ 'click → send': send - click, 'send → arrival': arrival - send, 'arrival → board': board - arrival, total: board - click });
    [mover, other] = [other, mover];
  }
  for (const k of Object.keys(rows[0])) {
    const v = rows.map((r) => r[k]);
    console.log(`${k.padEnd(16)} median ${median(v).toFixed(2)} ms, max ${Math.max(...v).toFixed(2)} ms over ${v.length} moves`);
  }
} finally {
  await ctx.browser.close();
  await ctx.relay.stop();
}
