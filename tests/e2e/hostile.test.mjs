// A hostile peer against a real room page (issue #21; docs/protocol.md, « Costs »): the live
// attacks of `engine/examples/hostile.rs` — entries that cross the page's own, void entries,
// « send me everything », challenges, bad proofs, badly signed knocks, messages without their
// padding — sent over WebRTC through the relay by a native peer (`tests/integration`, bin
// `hostile-peer`) to the page that holds the victim's seat in a room of 1 000 entries. The page
// survives each one unchanged (same seat, same status, no error; after `tiny`, a new connection
// once the wait is over), and the figure is its main thread's time per MB received (Chromium's
// own `TaskDuration`) from the first message on — the connection's own cost, paid once whatever
// follows, is reported apart —, beside the native figure of the same attack. With
// HOSTILE_PROFILE=1, each attack's CPU profile of the page is written beside the screenshots
// (`hostile-ATTACK.cpuprofile`, for Chromium's DevTools) and its heaviest functions printed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { relayAndBrowser, screenshot, DESKTOP, ROOT, SHOTS } from './harness.mjs';

const PEER = process.env.HOSTILE_PEER_BIN || path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'hostile-peer');
const ATTACKS = ['crossing', 'void', 'heads', 'challenge', 'proof', 'knock', 'tiny'];
// Messages per attack: some 0.1 to 0.3 MB each, the native figures' 2 000.
const COUNT = Number(process.env.HOSTILE_COUNT || 2000);
const PROFILE = process.env.HOSTILE_PROFILE === '1';
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

/** Starts Chromium's sampling profiler on the page. */
async function startProfile(cdp) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
}

/** Stops the profiler, writes its profile and prints the functions with the most time of their
 * own (the named build's names: `scripts/build-client.sh` keeps them with NAMED=1). */
async function saveProfile(cdp, attack) {
  const { profile } = await cdp.send('Profiler.stop');
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(path.join(SHOTS, `hostile-${attack}.cpuprofile`), JSON.stringify(profile));
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const deltas = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}`;
    self.set(name, (self.get(name) || 0) + (deltas[i + 1] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`profile « ${attack} »: ${(total / 1e3).toFixed(0)} ms sampled`);
  top.forEach(([n, us]) => console.log(`  ${(us / 1e3).toFixed(1).padStart(7)} ms ${(100 * us / total).toFixed(1).padStart(5)} %  ${n}`));
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
      const idle = await quiet(cdp);
      peer.child.stdin.write('connect\n');
      assert.deepEqual(await peer.next(), { connected: true });
      const before = await quiet(cdp);
      if (PROFILE) await startProfile(cdp);
      peer.child.stdin.write('send\n');
      const { sent } = await peer.next();
      // Messages without their padding (`tiny`): the page drops the connection at the first,
      // and the peer stops when its channel says so.
      if (attack === 'tiny') assert.ok(sent > 0 && sent <= peer.room.bytes, `${sent}`);
      else assert.equal(sent, peer.room.bytes);
      const spent = (await quiet(cdp)) - before;
      if (PROFILE) await saveProfile(cdp, attack);
      const mb = sent / 1e6;
      // Unpadded, what the page spends is the connection it drops, whatever the peer sent.
      const cost = attack === 'tiny' ? 'in all, the connection dropped' : `= ${(spent / mb).toFixed(2)} s/MB`;
      figures.push(`figure: hostile « ${attack} » against a room page of ${peer.room.entries} entries: ${peer.room.messages} messages, ${mb.toFixed(3)} MB; the page's main thread ${spent.toFixed(3)} s ${cost} (the connection apart: ${(before - idle).toFixed(3)} s)`);
      if (attack === 'tiny') {
        // Said, then a new connection after the wait (2 s the first time): the peer's socket
        // is still in the room, and is met again.
        await page.locator('[data-relay]', { hasText: 'ne sait pas lire' }).waitFor({ timeout: 5000 });
        await screenshot(page, 'hostile-tiny-dropped');
        await page.locator('[data-relay]').waitFor({ state: 'detached', timeout: 15000 });
      }
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
