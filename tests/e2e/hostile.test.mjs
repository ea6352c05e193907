// A hostile peer against a real room page (issue #21; docs/protocol.md, « Costs »): the live
// attacks of `engine/examples/hostile.rs` — entries that cross the page's own, void entries,
// « send me everything », challenges, bad proofs, badly signed knocks — sent over WebRTC through
// the relay by a native peer (`tests/integration`, bin `hostile-peer`) to the page that holds the
// victim's seat in a room of 1 000 entries. The page survives each one unchanged (same seat,
// same status, no error), and the figure is its main thread's time per MB received (Chromium's
// own `TaskDuration`), beside the native figure of the same attack.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { relayAndBrowser, DESKTOP, ROOT } from './harness.mjs';

const PEER = process.env.HOSTILE_PEER_BIN || path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'hostile-peer');
const ATTACKS = ['crossing', 'void', 'heads', 'challenge', 'proof', 'knock'];
// Messages per attack: some 0.1 to 0.3 MB each, the native figures' 2 000.
const COUNT = Number(process.env.HOSTILE_COUNT || 2000);
// Where a tab kept its seat before seats were kept per room; the room page still reads it once
// (client/src/ui/room/open.rs), which lets a test hand it a seat in a long room.
const OLD_SEAT_KEY = 'moulin-online-seat-v1';

const ctx = {};
relayAndBrowser(ctx);
const figures = [];
after(() => figures.forEach((f) => console.log(f)));

/** The hostile peer for `attack`: its first line (the room and the victim's seat), a way to read
 * its next line, and its process. */
async function hostilePeer(attack) {
  const child = spawn(PEER, [attack, '--relay', new URL(ctx.relay.url).host, '--count', String(COUNT)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    assert.ok(!done, `hostile-peer ${attack} ended early`);
    return JSON.parse(value);
  };
  return { child, next, room: await next() };
}

/** The page's main thread time so far, in seconds (Chromium's `Performance` domain). */
async function busy(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration').value;
}

/** Waits until the page's main thread stops working (under 5 ms in each of two 300 ms spans). */
async function quiet(cdp) {
  let last = await busy(cdp);
  for (let calm = 0; calm < 2;) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await busy(cdp);
    calm = now - last < 0.005 ? calm + 1 : 0;
    last = now;
  }
  return last;
}

for (const attack of ATTACKS) {
  test(`a hostile peer's « ${attack} » leaves the room page as it was; its cost per MB (figure)`, async (t) => {
    if (!existsSync(PEER)) {
      t.skip(`${PEER} is not built: cargo build -p integration-tests --bin hostile-peer`);
      return;
    }
    const peer = await hostilePeer(attack);
    try {
      const context = await ctx.browser.newContext({ viewport: DESKTOP });
      await context.addInitScript(([key, saved]) => {
        if (!sessionStorage.getItem('e2e-seeded')) {
          sessionStorage.setItem(key, saved);
          sessionStorage.setItem('e2e-seeded', '1');
        }
      }, [OLD_SEAT_KEY, peer.room.saved]);
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${ctx.relay.url}/moulin/salon#${peer.room.fragment}`);
      await page.locator(`main[data-seat="${peer.room.seat}"]`).waitFor({ timeout: 30000 });
      const status = await page.locator('[data-status]').textContent();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const before = await quiet(cdp);
      peer.child.stdin.write('go\n');
      const { sent } = await peer.next();
      assert.equal(sent, peer.room.bytes);
      const spent = (await quiet(cdp)) - before;
      const mb = sent / 1e6;
      figures.push(`figure: hostile « ${attack} » against a room page of ${peer.room.entries} entries: ${peer.room.messages} messages, ${mb.toFixed(3)} MB; the page's main thread ${spent.toFixed(3)} s = ${(spent / mb).toFixed(2)} s/MB (connection and idle included)`);
      // Unchanged: the same seat, the same status, nothing thrown.
      assert.equal(await page.locator('main').getAttribute('data-seat'), peer.room.seat);
      assert.equal(await page.locator('[data-status]').textContent(), status);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      peer.child.stdin.end();
      peer.child.kill();
    }
  });
}
