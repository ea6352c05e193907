// Pairing without a relay end to end (issue #25, SPEC §13): the built client served by a plain
// static file server — no relay anywhere —, two browser contexts in headless Chromium paired by
// copying two texts: the host's offer (a link), the guest's answer. A whole Ultimate tic-tac-toe
// game played over the data channel (and, from the installed app once the site is gone, a Morris
// game begun, through a reload of the host), texts pasted in the wrong box or stale refused with
// their message, the guest's answer through a phone's share sheet, a reload on the guest's side
// and a « Nouvel échange » that rejoins the same seats and transcript, the export checked by
// `engine verify`. Figures: the texts' sizes, the QR code's version, the time from the host's
// paste of the answer to the first move on both boards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  startRelay, launchBrowser, STATIC_DIR, ENGINE_BIN, META_GAME, MORRIS_GAME, cell, engineReplay, morrisClicks,
  screenshot, PHONE,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.txt': 'text/plain; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.webmanifest': 'application/manifest+json', '.json': 'application/json',
};

/** A plain static file server of `dir`, as docs/self-hosting.md describes one: files as they
 * are, and index.html for a path without an extension (the client's routes). It records every
 * path asked. */
function staticServer(dir) {
  const asked = [];
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    asked.push(p);
    let file = path.join(dir, path.normalize(p));
    if (!file.startsWith(dir)) { res.writeHead(403); res.end(); return; }
    if (!path.extname(p)) file = path.join(dir, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    asked,
    stop: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }),
  })));
}

const ctx = {};
const figures = { connect: [], latency: [] };
const { player, watchBoard, playTurn } = roomKit(ctx, figures);
let site;

before(async () => {
  site = await staticServer(STATIC_DIR);
  ctx.relay = { url: site.url }; // the kit opens its pages here: no relay is running
  ctx.browser = await launchBrowser();
});
after(async () => {
  await ctx.browser?.close();
  await site?.stop();
  if (figures.latency.length) {
    const sorted = [...figures.latency].sort((a, b) => a - b);
    console.log(`# serverless: move → opponent's board, median ${sorted[sorted.length >> 1].toFixed(1)} ms over ${sorted.length} moves`);
  }
});

/** Pastes `text` into the box `selector` of `page` and submits its form. */
async function paste(page, selector, text) {
  const box = page.locator(selector);
  await box.fill(text);
  await box.evaluate((el) => el.form.requestSubmit());
}

/** The host pastes the guest's answer; resolves once both see each other, with the time from
 * the paste to the first board showing a move. */
async function connect(host, guest, answer) {
  await paste(host, '[data-answer-input]', answer);
  await host.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await guest.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
}

/** A share sheet, as a phone has (headless Chromium has none): records what it is given. */
const SHARE_SHEET = `
  window.__shared = [];
  Navigator.prototype.share = function (data) {
    window.__shared.push({ ...data });
    return Promise.resolve();
  };
`;

/** The guest's answer once it is another than `old` (a new offer taken). */
async function newAnswer(guest, old) {
  await guest.waitForFunction((old) => {
    const el = document.querySelector('[data-answer]');
    return el && el.value && el.value !== old;
  }, old, { timeout: 20000 });
  return guest.locator('[data-answer]').inputValue();
}

/** Turns `from` to `to` (excluded) of MORRIS_GAME, by clicks, the host moving first. */
async function playMorris(host, guest, from, to) {
  for (let i = from; i < to; i++) {
    const [mover, other] = i % 2 ? [guest, host] : [host, guest];
    const clicks = morrisClicks(MORRIS_GAME.split(' ')[i]).map((p) => `[data-point="${p}"]`);
    await playTurn(mover, other, clicks, 'data-point', 24, 'BR');
  }
}

test('two browsers paired by two texts on a static host play a whole game, through a reload and a new exchange', async () => {
  const h = await player();
  const g = await player(PHONE, { init: SHARE_SHEET });
  const [host, guest] = [h.page, g.page];
  await host.goto(`${site.url}/meta-morpion/distance`);
  await host.locator('[data-serverless]').click();
  const offerBox = host.locator('[data-offer]');
  await offerBox.waitFor({ timeout: 20000 });
  const offer = await offerBox.inputValue();
  assert.match(offer, new RegExp(`^${site.url}/meta-morpion/sans-serveur#p=[A-Za-z0-9_-]+$`));
  const offerText = offer.slice(offer.indexOf('#p=') + 3);
  const qr = Number(await host.locator('[data-pairing-panel] svg[data-qr]').getAttribute('data-qr'));
  console.log(`# serverless: offer ${offerText.length} characters, its link ${offer.length} (QR version ${(qr - 17) / 4})`);
  assert.ok(offer.length <= 300, `the offer's link is ${offer.length} characters`);
  await screenshot(host, 'serverless-host-offer-desktop');

  // The host pastes its own offer where the answer goes: told so, nothing lost.
  await paste(host, '[data-answer-input]', offer);
  assert.match(await host.locator('[data-pairing-error]').textContent(), /votre propre offre/);
  await paste(host, '[data-answer-input]', 'bonjour');
  assert.match(await host.locator('[data-pairing-error]').textContent(), /pas un texte d'appariement lisible/);

  // The guest opens the offer's link and gets its answer.
  await guest.goto(offer);
  const answerBox = guest.locator('[data-answer]');
  await answerBox.waitFor({ timeout: 20000 });
  const answer = await answerBox.inputValue();
  console.log(`# serverless: answer ${answer.length} characters`);
  assert.equal(await guest.locator('main').getAttribute('data-seat'), 'guest');
  await screenshot(guest, 'serverless-guest-answer-phone');
  // The phone shares its answer alone (the host pastes it as it comes).
  await guest.locator('[data-share="pairing"]').click();
  assert.deepEqual(await guest.evaluate(() => window.__shared), [{ text: answer }]);
  assert.equal(await host.locator('[data-share]').count(), 0);
  // An answer pasted into the guest's offer box is not an offer.
  await paste(guest, '[data-offer-input]', answer);
  assert.match(await guest.locator('[data-pairing-error]').textContent(), /une réponse, pas une offre/);

  const pasted = Date.now();
  await connect(host, guest, answer);
  await watchBoard(host);
  await watchBoard(guest);
  const names = META_GAME.split(' ');
  const moveOn = (i) => playTurn(i % 2 ? guest : host, i % 2 ? host : guest, [`[data-cell="${cell(names[i])}"]`], 'data-cell', 81, 'XO');
  await moveOn(0);
  console.log(`# serverless: the host's paste of the answer → the first move on both boards: ${Date.now() - pasted} ms`);
  for (let i = 1; i < 20; i++) await moveOn(i);

  // The guest reloads: the channel is lost. The host's page offers a new exchange; the guest's
  // page, opened again on the old offer, takes the new one pasted.
  await guest.reload();
  await host.locator('[data-pairing-panel] h2', { hasText: 'Nouvel échange' }).waitFor({ timeout: 20000 });
  const offer2 = await host.locator('[data-offer]').inputValue();
  assert.notEqual(offer2, offer);
  // The guest's old answer, to the offer before, is stale.
  await paste(host, '[data-answer-input]', answer);
  assert.match(await host.locator('[data-pairing-error]').textContent(), /une autre offre/);
  await paste(guest, '[data-offer-input]', offer2);
  const answer2 = await newAnswer(guest, answer);
  await connect(host, guest, answer2);
  await screenshot(host, 'serverless-rejoined-desktop');
  await watchBoard(host);
  await watchBoard(guest);
  for (let i = 20; i < names.length; i++) await moveOn(i);

  const expected = engineReplay('meta', META_GAME);
  for (const p of [host, guest]) {
    await p.locator('[data-status="won"]').waitFor();
    assert.equal(await p.locator('[data-status]').getAttribute('data-winner'), '1');
  }
  await host.getByRole('button', { name: 'Exporter la partie' }).click();
  const href = await host.locator('[data-export="transcript"]').getAttribute('href');
  const transcript = decodeURIComponent(href.slice(href.indexOf(',') + 1));
  const { room: story, ...verified } = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: transcript }).toString());
  assert.deepEqual(verified, expected);
  assert.match(story.verdict, /^verified/);
  // Nothing asked a relay: the static host was asked for files only.
  assert.deepEqual(site.asked.filter((p) => p.startsWith('/ws/')), []);
  for (const p of [h, g]) assert.deepEqual(p.errors.filter((e) => !/ice-servers|404/.test(e)), []);
  for (const p of [h, g]) await p.context.close();
});

test('an offer that is cut, for the other game, or pasted in the lobby says so', async () => {
  const h = await player();
  await h.page.goto(`${site.url}/moulin/distance`);
  await h.page.locator('[data-serverless]').click();
  const offer = await h.page.locator('[data-offer]').inputValue();
  const g = await player();
  // Cut short when copied.
  await g.page.goto(offer.slice(0, -12));
  await g.page.locator('[data-room-error="pairing"]').waitFor();
  assert.match(await g.page.locator('[data-room-error]').textContent(), /coupé/);
  // The host's page address opened as the other game's: its link leads to the right game's
  // page paired by hand.
  await g.page.goto(h.page.url().replace('/moulin/', '/meta-morpion/'));
  await g.page.locator('[data-room-error="other-game"]').waitFor();
  assert.match(await g.page.locator('[data-room-error] a.button').getAttribute('href'), /^\/moulin\/sans-serveur#g=morris&/);
  // Pasted in the other game's lobby: it leads to its game.
  await g.page.goto(`${site.url}/meta-morpion/distance`);
  await paste(g.page, '[data-offer-input]', offer);
  await g.page.locator('[data-room-error="other-game"]').waitFor();
  await g.page.locator('[data-room-error] a.button').click();
  await g.page.locator('[data-answer]').waitFor({ timeout: 20000 });
  assert.equal(await g.page.locator('main').getAttribute('data-seat'), 'guest');
  for (const p of [h, g]) await p.context.close();
});

test('the installed app pairs without a server and plays once the site is gone, through a reload of the host', async () => {
  // Both browsers visited the site once: the service worker holds it. Then the site is gone —
  // as for two devices on a network with no internet: the network between them still works
  // (the browser's offline emulation would cut that too, and WebRTC with it).
  const app = await staticServer(STATIC_DIR);
  const h = await player();
  const g = await player(PHONE);
  for (const p of [h, g]) {
    await p.page.goto(`${app.url}/`);
    await p.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
  }
  await app.stop();
  const [host, guest] = [h.page, g.page];
  await host.goto(`${app.url}/moulin/distance`);
  await host.locator('[data-serverless]').click();
  const offer = await host.locator('[data-offer]').inputValue();
  assert.match(offer, new RegExp(`^${app.url}/moulin/sans-serveur#p=`));
  // The guest pastes the offer into its lobby (as from a chat), rather than opening the link.
  await guest.goto(`${app.url}/moulin/distance`);
  await paste(guest, '[data-offer-input]', `voici le lien : ${offer}`);
  const answer = await guest.locator('[data-answer]').inputValue();
  await connect(host, guest, answer);
  await watchBoard(host);
  await watchBoard(guest);
  await playMorris(host, guest, 0, 6);
  // The host reloads (from the app's cache: the site is gone): its page makes a new offer; the
  // guest's says the connection is lost and waits for it; the game goes on where it was.
  await host.reload();
  const offer2 = await host.locator('[data-offer]').inputValue();
  await guest.locator('[data-pairing-panel] h2', { hasText: 'Nouvel échange' }).waitFor({ timeout: 20000 });
  assert.equal(await guest.locator('[data-pairing="gathering"]').count(), 0);
  await paste(guest, '[data-offer-input]', offer2);
  await connect(host, guest, await newAnswer(guest, answer));
  await watchBoard(host);
  await watchBoard(guest);
  await playMorris(host, guest, 6, 10);
  await screenshot(guest, 'serverless-app-phone');
  for (const p of [h, g]) {
    assert.deepEqual(p.errors.filter((e) => !/ice-servers|Failed to fetch|net::|Failed to load/.test(e)), []);
    await p.context.close();
  }
});

test('a relayed room whose relay is gone goes on paired by hand: the same seats, the game where it was', async () => {
  const relay = await startRelay();
  const h = await player();
  const g = await player(PHONE);
  const [host, guest] = [h.page, g.page];
  // Both have the app (the service worker), as a visitor of the site does.
  for (const p of [host, guest]) {
    await p.goto(`${relay.url}/`);
    await p.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15000 });
  }
  await host.goto(`${relay.url}/moulin/distance`);
  await host.getByRole('button', { name: 'Créer le salon' }).click();
  await guest.goto(await host.locator('[data-invite-link]').inputValue());
  for (const p of [host, guest]) await p.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await watchBoard(host);
  await watchBoard(guest);
  await playMorris(host, guest, 0, 2);
  assert.equal(await host.locator('[data-go-serverless]').count(), 0);
  // The relay goes; then the guest's tab leaves the room: no channel, no relay.
  await relay.stop();
  await guest.goto('about:blank');
  const go = host.locator('[data-go-serverless]');
  await go.waitFor({ timeout: 30000 });
  await screenshot(host, 'serverless-relay-gone-desktop');
  await go.click();
  await host.waitForURL(/\/moulin\/sans-serveur#/);
  const offer = await host.locator('[data-offer]').inputValue({ timeout: 20000 });
  await guest.goto(offer);
  const answer = await guest.locator('[data-answer]').inputValue({ timeout: 20000 });
  assert.equal(await guest.locator('main').getAttribute('data-seat'), 'guest');
  await connect(host, guest, answer);
  // The same game: two turns in each history, Blue's turn again.
  for (const p of [host, guest]) {
    await p.locator('[data-ply="2"]').waitFor();
    assert.equal(await p.locator('[data-ply]:not([data-ply="0"])').count(), 2);
  }
  await watchBoard(host);
  await watchBoard(guest);
  await playMorris(host, guest, 2, 4);
  for (const p of [h, g]) await p.context.close();
});
