// Spectators end to end (issue #24, SPEC §11): three and more browser contexts in headless
// Chromium — a host, a guest, spectators — over the real relay and WebRTC. A whole Ultimate
// tic-tac-toe game watched from the first move, a request shown read-only, a spectator that
// joins late and catches up, one that reloads, the host away while the guest feeds a new
// spectator, the transcript a spectator exports checked by `engine verify`, the rematch; a host
// browser that alters an entry on its way to a spectator, caught; the relay's cap (a
// spectator over it told « trop de spectateurs », the players' seats untouched); a link that is
// no watch link, and one to a room nobody plays in. Figures: player move → spectator board.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  relayAndBrowser, startRelay, PHONE, screenshot, engineReplay, cell, boardString, median,
  ENGINE_BIN, META_GAME,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const figures = { connect: [], latency: [], watched: [], late: [] };
const ctx = {};
const { player, createRoom, join, watchBoard } = roomKit(ctx, figures);

relayAndBrowser(ctx);

after(() => {
  if (figures.watched.length) {
    console.log(`# spectators: player move → spectator board, median ${median(figures.watched).toFixed(1)} ms over ${figures.watched.length} moves (max ${Math.max(...figures.watched).toFixed(1)})`);
  }
  for (const l of figures.late) console.log(`# spectators: a late spectator of ${l.turns} turns on its board in ${l.ms.toFixed(0)} ms after navigation`);
});

const cells = (page) => boardString(page, 'data-cell', 81, 'XO');

/** The spectator link the host's room page offers. */
async function spectatorLink(page) {
  const box = page.locator('[data-spectator-link]');
  await box.waitFor();
  return box.inputValue();
}

/** Opens a watch link in a new context; resolves once the spectator's board shows `expected`. */
async function spectator(link, expected, viewport) {
  const s = await player(viewport);
  await s.page.goto(link);
  await waitCells(s.page, expected);
  return s;
}

function waitCells(page, expected, timeout = 20000) {
  return page.waitForFunction((expected) => {
    let s = '';
    for (let i = 0; i < 81; i++) {
      const el = document.querySelector(`[data-cell="${i}"]`);
      if (!el) return false;
      const p = el.getAttribute('data-piece');
      s += p === null ? '.' : 'XO'[Number(p)];
    }
    return s === expected;
  }, expected, { timeout });
}

/** Plays one cell by the mover; waits until the other player and every spectator show it,
 * timing the click → each spectator's board. */
async function play(mover, other, watchers, name) {
  await mover.locator('main[data-my-turn="true"]').waitFor();
  const before = await Promise.all(watchers.map((w) => w.evaluate(() => window.__boardChanges.length)));
  const t = await mover.evaluate((sel) => {
    const el = document.querySelector(sel);
    const at = performance.timeOrigin + performance.now();
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    return at;
  }, `[data-cell="${cell(name)}"]`);
  const expected = await cells(mover);
  await waitCells(other, expected);
  for (const [i, w] of watchers.entries()) {
    await w.waitForFunction((n) => window.__boardChanges.length > n, before[i]);
    await waitCells(w, expected);
    figures.watched.push(await w.evaluate(() => window.__boardChanges[window.__boardChanges.length - 1]) - t);
  }
}

test('a whole game watched: a request read-only, a late spectator, a reload, the guest feeding while the host is away, an export that verifies', async () => {
  const h = await player();
  const g = await player();
  const [host, guest] = [h.page, g.page];
  const { link } = await createRoom(host, 'meta');
  // The spectator link: the room and the host's key, no secret, no seat.
  const watch = await spectatorLink(host);
  assert.match(watch, /\/meta-morpion\/regarder#w=meta&r=[0-9a-f]{32}&k=[0-9a-f]{64}$/);
  assert.equal(new URL(watch).hash.includes('s='), false);
  assert.ok(link.includes(new URL(watch).hash.match(/r=[0-9a-f]+/)[0]));
  await join(guest, host, link);

  // A spectator from the first move: both players there, nothing to act with.
  const s1 = await spectator(watch, '.'.repeat(81));
  const w1 = s1.page;
  await w1.locator('[data-seat="host"][data-presence="here"]').waitFor({ timeout: 20000 });
  await w1.locator('[data-seat="guest"][data-presence="here"]').waitFor({ timeout: 20000 });
  await host.locator('[data-spectators="1"]').waitFor();
  assert.match(await host.locator('[data-spectators]').textContent(), /1 spectateur/);
  assert.equal(await w1.getByRole('button', { name: /Annuler|Abandonner|Proposer la nulle|Quitter|Nouvelle partie/ }).count(), 0);
  assert.equal(await w1.locator('main[data-my-turn]').count(), 0);
  assert.match(await w1.title(), /spectateur/);
  await watchBoard(w1);

  const names = META_GAME.split(' ');
  const watchers = [w1];
  let s2;
  for (let i = 0; i < names.length; i++) {
    const [mover, other] = i % 2 ? [guest, host] : [host, guest];
    await play(mover, other, watchers, names[i]);
    assert.equal(await w1.locator('[data-verified]').getAttribute('data-verified'), 'true');
    if (i === 5) {
      // A request, shown read-only: the guest offers a draw, the host declines.
      await guest.getByRole('button', { name: 'Proposer la nulle' }).click();
      await w1.locator('[data-request]').waitFor();
      assert.match(await w1.locator('[data-request]').textContent(), /invité propose : une partie nulle/);
      await host.getByRole('button', { name: 'Refuser' }).click();
      await w1.locator('[data-request]').waitFor({ state: 'detached' });
    }
    if (i === 20) {
      // A late spectator catches up from the first entry.
      const start = Date.now();
      s2 = await spectator(watch, await cells(host), PHONE);
      figures.late.push({ turns: i + 1, ms: Date.now() - start });
      await s2.page.locator('[data-verified="true"]').waitFor();
      await host.locator('[data-spectators="2"]').waitFor();
      await screenshot(s2.page, 'spectator-meta-mid-phone');
      await watchBoard(s2.page);
      watchers.push(s2.page);
    }
    if (i === 30) {
      // A spectator reloads: it rejoins as a spectator and catches up again.
      await w1.reload();
      await waitCells(w1, await cells(host));
      await w1.locator('[data-verified="true"]').waitFor();
      await watchBoard(w1);
      await screenshot(w1, 'spectator-meta-reloaded-desktop');
    }
    if (i === 40) {
      // The host goes away: a new spectator is fed by the guest alone.
      const url = host.url();
      await host.goto('about:blank');
      await w1.locator('[data-seat="host"][data-presence="away"]').waitFor({ timeout: 20000 });
      const s3 = await spectator(watch, await cells(guest));
      await s3.page.locator('[data-seat="guest"][data-presence="here"]').waitFor({ timeout: 20000 });
      assert.equal(await s3.page.locator('[data-seat="host"]').getAttribute('data-presence'), 'away');
      await s3.context.close();
      // The host comes back (its seat is kept in its browser) and play goes on.
      await host.goto(url);
      await host.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
      await w1.locator('[data-seat="host"][data-presence="here"]').waitFor({ timeout: 20000 });
    }
  }
  const expected = engineReplay('meta', META_GAME);
  for (const w of watchers) {
    await w.locator('[data-status="won"]').waitFor();
    assert.equal(await w.locator('[data-status]').getAttribute('data-winner'), '1');
    assert.equal(await cells(w), expected.cells);
  }
  await screenshot(w1, 'spectator-meta-end-desktop');

  // Any turn of the history opens read-only, and the live game comes back.
  await w1.keyboard.press('Home');
  await waitCells(w1, '.'.repeat(81));
  await w1.keyboard.press('End');
  await waitCells(w1, expected.cells);

  // What the spectator checked exports as a transcript `engine verify` accepts.
  await w1.getByRole('button', { name: 'Exporter la partie' }).click();
  const href = await w1.locator('[data-export="transcript"]').getAttribute('href');
  const transcript = decodeURIComponent(href.slice(href.indexOf(',') + 1));
  const { room: story, ...verified } = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: transcript }).toString());
  assert.deepEqual(verified, expected);
  assert.match(story.verdict, /^verified/);
  assert.deepEqual(story.faults, []);

  // The rematch, asked and accepted, reaches the spectators: a new game on an empty board.
  await host.locator('[data-rematch]').click();
  await host.getByRole('dialog').getByRole('button', { name: 'Proposer' }).click();
  await w1.locator('[data-request]').waitFor();
  assert.match(await w1.locator('[data-request]').textContent(), /hôte propose : une nouvelle partie/);
  await guest.getByRole('alertdialog').getByRole('button', { name: 'Accepter' }).click();
  for (const w of watchers) {
    await w.locator('main[data-game-number="1"]').waitFor();
    await waitCells(w, '.'.repeat(81));
  }
  assert.equal(await w1.locator('[data-request]').count(), 0);
  for (const p of [h, g, s1, s2]) assert.deepEqual(p.errors, []);
  for (const p of [h, g, s1, s2]) await p.context.close();
});

test('the relay caps the spectators: one over is told « trop de spectateurs », the seats are untouched', async () => {
  const relay = await startRelay(['--max-spectators', '1']);
  const suite = ctx.relay;
  ctx.relay = relay; // the kit's pages open on this relay
  try {
    const h = await player();
    const g = await player();
    const { link } = await createRoom(h.page, 'meta');
    await h.page.locator('[data-presence="waiting"]').waitFor({ timeout: 20000 });
    const watch = await spectatorLink(h.page);
    const s1 = await spectator(watch, '.'.repeat(81));
    await s1.page.locator('[data-seat="host"][data-presence="here"]').waitFor({ timeout: 20000 });
    const s2 = await player();
    await s2.page.goto(watch);
    await s2.page.locator('[data-watch-refused]').waitFor({ timeout: 20000 });
    assert.match(await s2.page.locator('[data-watch-refused]').textContent(), /trop de spectateurs/i);
    await screenshot(s2.page, 'spectator-refused-desktop');
    // The guest still takes its seat, and plays.
    await join(g.page, h.page, link);
    await h.page.locator('main[data-my-turn="true"]').waitFor();
    for (const p of [h, g, s1, s2]) await p.context.close();
  } finally {
    ctx.relay = suite;
    await relay.stop();
  }
});

test('a link that is no watch link, and one to a room nobody plays in, say so', async () => {
  const s = await player();
  await s.page.goto(`${ctx.relay.url}/moulin/regarder#w=morris&r=zz`);
  await s.page.locator('[data-watch-error]').waitFor();
  assert.match(await s.page.locator('[data-watch-error]').textContent(), /Lien spectateur non valable/);
  // A well-formed link to a room that ended or expired: the relay finds it empty.
  const h = await player();
  await createRoom(h.page, 'morris');
  const watch = await spectatorLink(h.page);
  await h.context.close();
  await s.page.goto(watch.replace(/r=[0-9a-f]{32}/, `r=${'ab'.repeat(16)}`));
  await s.page.reload();
  await s.page.locator('[data-watch-empty]').waitFor({ timeout: 20000 });
  assert.match(await s.page.locator('[data-watch-empty]').textContent(), /la partie est finie ou le salon a expiré/);
  await s.context.close();
});

// A modified host browser: once `window.__lie` is set, the next message of entries it sends on
// any data channel but its first (the guest's) has one byte flipped inside the last entry's
// signature, just before the padding — a message still well formed, with an entry altered.
const LIAR = () => {
  const send = RTCDataChannel.prototype.send;
  const channels = [];
  RTCDataChannel.prototype.send = function (data) {
    if (!channels.includes(this)) channels.push(this);
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    // An `Entries` message (postcard's first variant: its first byte is 0) to a spectator.
    if (window.__lie && channels.indexOf(this) > 0 && bytes[0] === 0) {
      window.__lie = false;
      const altered = bytes.slice();
      // Padded with zeros (docs/protocol.md, « Wire »): the entry's signature ends where they begin.
      let end = altered.length;
      while (end > 0 && altered[end - 1] === 0) end--;
      altered[end - 10] ^= 1;
      return send.call(this, altered);
    }
    return send.call(this, data);
  };
};

test('a host browser that alters an entry for a spectator is caught: « Transcript non valable », and the guest feeds on', async () => {
  const h = await player(undefined, { init: LIAR });
  const g = await player();
  const [host, guest] = [h.page, g.page];
  const { link } = await createRoom(host, 'meta');
  const watch = await spectatorLink(host);
  await join(guest, host, link);
  const s = await spectator(watch, '.'.repeat(81));
  const w = s.page;
  await w.locator('[data-seat="guest"][data-presence="here"]').waitFor({ timeout: 20000 });
  await w.locator('[data-seat="host"][data-presence="here"]').waitFor({ timeout: 20000 });
  await watchBoard(w);
  const names = META_GAME.split(' ');
  await play(host, guest, [w], names[0]);
  await play(guest, host, [w], names[1]);
  await host.evaluate(() => { window.__lie = true; });
  await play(host, guest, [w], names[2]);
  const verdict = w.locator('[data-verified="false"]');
  await verdict.waitFor();
  assert.match(await verdict.textContent(), /Transcript non valable : l'entrée n° \d+ de l'hôte est refusée/);
  assert.equal(await host.evaluate(() => window.__lie), false, 'the lie was told');
  // What the board shows came from the guest, checked: the game goes on to the spectator.
  for (let i = 3; i < 8; i++) {
    const [mover, other] = i % 2 ? [guest, host] : [host, guest];
    await play(mover, other, [w], names[i]);
  }
  assert.equal(await w.locator('[data-verified]').getAttribute('data-verified'), 'false');
  await screenshot(w, 'spectator-caught-desktop');
  for (const p of [h, g, s]) await p.context.close();
});
