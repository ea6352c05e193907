// Installable and offline, end to end in headless Chromium: Chromium finds the site installable
// (manifest, icons, service worker); once visited, with the network cut, a reload opens the page
// and a whole hot-seat game is played, a game against the computer too (a page never opened
// before going offline); a remote page offline says that it needs the network, and stops saying
// it when the network returns; a new deployment replaces the cache, with no page mixing the two
// builds, online or offline. Figures: first load and offline reload, median of several. The
// network is cut as a real cut does it (harness.mjs, `cutNetwork`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  startRelay, launchBrowser, CHROMIUM_ARGS, LOCALE, DESKTOP, STATIC_DIR, screenshot, engineReplay, engineAi, boardString,
  morrisClicks, median, MORRIS_GAME, cutNetwork, restoreNetwork,
} from './harness.mjs';

let relay;
let browser;
const LOADS = 5;

before(async () => {
  relay = await startRelay();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await relay?.stop();
});

/** A fresh browser (own context) on `path`, once the service worker controls the page: from then
 * on the site is cached. */
async function visit(path, url = relay.url) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + path);
  await page.locator('main').waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
  return { page, context, errors };
}

async function playMorris(page, tokens) {
  for (const token of tokens) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
}

const build = (page) => page.evaluate(() => document.querySelector('meta[name="build"]').content);

test('Chromium finds the site installable: manifest, icons, service worker', async () => {
  // A profile on disk: Chromium does not install from an incognito context, which newContext is.
  const profile = mkdtempSync(path.join(os.tmpdir(), 'moulin-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS, viewport: DESKTOP,
    locale: LOCALE,
  });
  const page = await context.newPage();
  await page.goto(`${relay.url}/`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, []);
  const { url, errors, data } = await cdp.send('Page.getAppManifest');
  assert.equal(url, `${relay.url}/manifest.webmanifest`);
  assert.deepEqual(errors, []);
  const manifest = JSON.parse(data);
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  // Each icon loads and has the size the manifest says.
  const icons = await page.evaluate(async (icons) => Promise.all(icons.map(async (icon) => {
    const blob = await (await fetch(icon.src)).blob();
    if (icon.type === 'image/svg+xml') return { ...icon, ok: blob.type === icon.type };
    const bitmap = await createImageBitmap(blob);
    return { ...icon, ok: icon.sizes === `${bitmap.width}x${bitmap.height}` };
  })), manifest.icons);
  assert.ok(icons.length >= 3 && icons.every((i) => i.ok), JSON.stringify(icons));
  assert.ok(icons.some((i) => i.purpose === 'maskable'));
  await context.close();
  rmSync(profile, { recursive: true, force: true });
});

test('offline: load, cut the network, reload, play a whole hot-seat game', async () => {
  // First loads, nothing cached: navigation → interactive board.
  const first = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${relay.url}/moulin`);
    await page.locator('[data-point="0"]').waitFor();
    first.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  const { page, context, errors } = await visit('/moulin');
  await cutNetwork(context);
  const offline = [];
  for (let i = 0; i < LOADS; i++) {
    await page.reload();
    await page.locator('[data-point="0"]').waitFor();
    offline.push(await page.evaluate(() => performance.now()));
  }
  console.log(`figure: navigation to interactive Morris board, median of ${LOADS}: first load ${median(first).toFixed(0)} ms, `
    + `offline reload ${median(offline).toFixed(0)} ms`);
  assert.ok(await page.locator('#offline-note').isHidden(), 'hot-seat play needs no network: no note');
  assert.equal(await page.evaluate(() => navigator.onLine), false);
  await playMorris(page, MORRIS_GAME.split(' '));
  await page.locator('[data-status="won"]').waitFor();
  assert.equal(await page.locator('[data-status]').getAttribute('data-winner'), '0');
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), engineReplay('morris', MORRIS_GAME).board);
  // Another page of the site, never opened in this context, opens offline too.
  await page.goto(`${relay.url}/meta-morpion`);
  await page.locator('[data-cell="40"]').click();
  await page.locator('[data-cell="40"][data-piece="0"]').waitFor();
  await screenshot(page, 'offline-meta-desktop');
  assert.deepEqual(errors, []);
  await context.close();
});

test('against the computer offline: a whole game, after a visit to the home page only', async () => {
  const { page, context, errors } = await visit('/');
  await cutNetwork(context);
  await page.goto(`${relay.url}/moulin/ordinateur`);
  await page.getByLabel('Limite de tours (1 à 500)').fill('40');
  await page.getByRole('radio', { name: 'Débutant' }).check();
  await page.getByRole('button', { name: 'Commencer' }).click();
  let record = '';
  for (let turns = 0; ;) {
    // The player's turn (Blue), or the end.
    await page.waitForFunction((turns) => {
      const d = document.querySelector('main').dataset;
      return document.querySelector('[data-status]').dataset.status !== 'playing'
        || (d.thinking === 'false' && Number(d.turns) >= turns && Number(d.turns) % 2 === 0);
    }, turns, { timeout: 30000 });
    const d = await page.evaluate(() => ({ ...document.querySelector('main').dataset, status: document.querySelector('[data-status]').dataset.status }));
    record = d.record;
    if (d.status !== 'playing') break;
    await playMorris(page, [engineAi('morris', record, { level: 1, seed: turns, maxTurns: 40 })]);
    turns = Number(d.turns) + 2;
  }
  const tokens = record.split(' ');
  assert.ok(tokens.length >= 10, `a whole game: ${record}`);
  const replay = engineReplay('morris', record, 40);
  assert.equal(replay.phase, 'over');
  assert.equal(await page.locator('[data-status]').getAttribute('data-status'), replay.winner === null ? 'draw' : 'won');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a remote page offline says that it needs the network, until the network returns', async () => {
  const { page, context, errors } = await visit('/moulin/distance');
  const note = page.locator('#offline-note');
  assert.ok(await note.isHidden(), 'online: no note');
  await cutNetwork(context);
  await note.waitFor();
  assert.match(await note.textContent(), /hors ligne : le jeu à distance a besoin du réseau/);
  // Reloaded offline: the lobby opens from the cache, and says so at once.
  await page.reload();
  await page.getByRole('button', { name: 'Créer le salon' }).waitFor();
  assert.ok(await note.isVisible());
  await screenshot(page, 'offline-remote-lobby-desktop');
  await restoreNetwork(context);
  await note.waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a new deployment replaces the cache: no page mixes two builds, online or offline', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'moulin-deploy-'));
  const live = path.join(dir, 'dist');
  cpSync(STATIC_DIR, live, { recursive: true });
  const ours = await startRelay([], '127.0.0.1:0', live);
  try {
    const { page, context, errors } = await visit('/moulin', ours.url);
    const a = await build(page);
    const namesOf = (v) => readdirSync(v);
    const before = namesOf(live);

    // Deployment B, as build-client.sh would make it: a changed style sheet and client bundle
    // under new hashed names, a new version in index.html and sw.js; then the folder swapped.
    const next = path.join(dir, 'next');
    cpSync(live, next, { recursive: true });
    const hash = (s) => createHash('sha256').update(s).digest('hex').slice(0, 16);
    const rename = {};
    for (const f of namesOf(next)) {
      const m = f.match(/^(style|client)-([0-9a-f]{16})/);
      if (m) rename[`${m[1]}-${m[2]}`] ??= `${m[1]}-${hash(`${m[2]}B`)}`;
    }
    for (const f of namesOf(next)) {
      const stem = Object.keys(rename).find((k) => f.startsWith(k));
      if (!stem) continue;
      const to = path.join(next, f.replace(stem, rename[stem]));
      renameSync(path.join(next, f), to);
      if (f.endsWith('.css')) writeFileSync(to, `${readFileSync(to, 'utf8')}\n:root { --deployment: "B"; }\n`);
    }
    const b = hash(`${a}B`);
    for (const f of ['index.html', 'sw.js']) {
      let text = readFileSync(path.join(next, f), 'utf8').replaceAll(a, b);
      for (const [from, to] of Object.entries(rename)) text = text.replaceAll(from, to);
      writeFileSync(path.join(next, f), text);
    }
    renameSync(live, path.join(dir, 'old'));
    renameSync(next, live);
    const gone = before.filter((f) => !namesOf(live).includes(f));
    assert.equal(gone.length, 3, `the old style sheet and client bundle: ${gone}`);

    const loaded = () => page.evaluate(() => performance.getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.slice(1)).filter((n) => n && !n.startsWith('blob:')));
    const isB = async () => {
      assert.equal(await build(page), b);
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--deployment').trim()), '"B"');
      for (const n of await loaded()) assert.ok(!gone.includes(n), `${n} is of the old build`);
      await page.locator('[data-point="0"]').click();
      await page.locator('[data-point="0"][data-piece="0"]').waitFor();
    };
    // Online, the next load is B at once, though A's worker still controls the page.
    await page.reload();
    await isB();
    // B's worker takes over and A's cache goes.
    const caches = () => page.evaluate(async () => (await window.caches.keys()).join());
    for (let i = 0; i < 150 && (await caches()) !== `moulin-${b}`; i++) await page.waitForTimeout(100);
    assert.equal(await caches(), `moulin-${b}`);
    // Offline, B again: nothing of A is left to serve.
    await cutNetwork(context);
    await page.reload();
    await isB();
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await ours.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
