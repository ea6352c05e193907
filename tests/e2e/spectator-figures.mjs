// The spectators' figures for the issue notes (issue #24), run by hand — not a test:
//
//   RELAY_BIN=… node tests/e2e/spectator-figures.mjs [GAMES]
//
// A host and a guest play GAMES (9 by default) Ultimate tic-tac-toe games in a row in one room
// (the suite's 52-turn game, then rematches: 468 turns, 477 entries), with no spectator during
// the first game and eight during the second, on the host's page the main thread's busy time
// (Chrome's `ThreadTime`, `ProcessTime`, `TaskDuration`) per move is read for each; then a spectator opens the room late and
// the time it takes to show the last board, verified, is measured: from navigation, and from its
// first data channel. It prints the figures and exits.
import { chromium } from 'playwright-core';
import { startRelay, CHROMIUM_ARGS, LOCALE, META_GAME, cell, median, DESKTOP } from './harness.mjs';

const games = Number(process.argv[2] || 9);
const relay = await startRelay();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
const context = () => browser.newContext({ locale: LOCALE, viewport: DESKTOP });
const open = async () => (await context()).newPage();
try {
  const host = await open();
  const guest = await open();
  await host.goto(`${relay.url}/meta-morpion/distance`);
  await host.getByRole('button', { name: 'Créer le salon' }).click();
  const link = await host.locator('[data-invite-link]').inputValue();
  const watch = await host.locator('[data-spectator-link]').inputValue();
  await guest.goto(link);
  await host.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  const cdp = await host.context().newCDPSession(host);
  await cdp.send('Performance.enable');
  // CPU time, not wall time: ten pages share two cores. ThreadTime is the page's main thread,
  // ProcessTime its renderer process (WebRTC's threads with it), TaskDuration the main
  // thread's wall time in tasks.
  const busy = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name) => metrics.find((m) => m.name === name).value * 1000;
    return { thread: get('ThreadTime'), process: get('ProcessTime'), task: get('TaskDuration') };
  };
  const names = META_GAME.split(' ');
  const cost = [];
  let spectators = [];
  for (let game = 0; game < games; game++) {
    if (game === 1) {
      spectators = await Promise.all(Array.from({ length: 8 }, async () => {
        const p = await open();
        await p.goto(watch);
        await p.locator('[data-verified="true"]').waitFor({ timeout: 30000 });
        return p;
      }));
      await host.locator('[data-spectators="8"]').waitFor({ timeout: 30000 });
    }
    const start = await busy();
    for (const name of names) {
      const mover = (await host.locator('main[data-my-turn="true"]').count()) ? host : guest;
      const other = mover === host ? guest : host;
      const n = await other.evaluate(() => document.querySelectorAll('[data-cell][data-piece]').length);
      await mover.locator(`[data-cell="${cell(name)}"]`).click();
      await other.waitForFunction((n) => document.querySelectorAll('[data-cell][data-piece]').length > n, n);
    }
    if (game < 2) {
      const end = await busy();
      const per = (k) => (end[k] - start[k]) / names.length;
      cost.push({ spectators: spectators.length, thread: per('thread'), process: per('process'), task: per('task') });
    }
    if (game === 1) {
      for (const p of spectators) await p.context().close();
      spectators = [];
    }
    await host.locator('[data-status="won"]').waitFor();
    if (game + 1 < games) {
      await host.locator('[data-rematch]').click();
      await host.getByRole('dialog').getByRole('button', { name: 'Proposer' }).click();
      await guest.getByRole('alertdialog').getByRole('button', { name: 'Accepter' }).click();
      await host.locator('[data-status="won"]').waitFor({ state: 'detached' });
    }
  }
  const turns = games * names.length;
  for (const c of cost) {
    console.log(`host page per move, ${c.spectators} spectators: main thread CPU ${c.thread.toFixed(2)} ms, renderer process CPU ${c.process.toFixed(2)} ms, main thread in tasks ${c.task.toFixed(2)} ms`);
  }
  const expected = await host.evaluate(() => [...document.querySelectorAll('[data-cell]')].map((e) => e.getAttribute('data-piece') ?? '.').join(''));
  const late = [];
  for (let i = 0; i < 5; i++) {
    const p = await open();
    await p.goto(watch);
    const shown = await p.waitForFunction((expected) => {
      const now = [...document.querySelectorAll('[data-cell]')].map((e) => e.getAttribute('data-piece') ?? '.').join('');
      return now === expected && document.querySelector('[data-verified="true"]') && performance.now();
    }, expected, { timeout: 30000, polling: 'raf' });
    const at = await shown.jsonValue();
    const channel = Number(await p.locator('main[data-first-peer-ms]').getAttribute('data-first-peer-ms'));
    const entries = await p.locator('[data-verified]').textContent();
    late.push({ at, channel });
    console.log(`late spectator of ${turns} turns (${entries.match(/\d+/)[0]} entries): board at ${at.toFixed(0)} ms after navigation, ${(at - channel).toFixed(0)} ms after its first channel opened`);
    await p.context().close();
  }
  console.log(`median: ${median(late.map((l) => l.at)).toFixed(0)} ms after navigation, ${median(late.map((l) => l.at - l.channel)).toFixed(0)} ms after the channel`);
} finally {
  await browser.close();
  await relay.stop();
}
