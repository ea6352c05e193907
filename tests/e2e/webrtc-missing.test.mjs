// A browser without WebRTC, told at once and truly: Firefox with WebRTC turned off
// (`media.peerconnection.enabled=false`, a common privacy setting) and Chromium without
// `RTCPeerConnection` (as a browser built without it) see, before anything is clicked, that this
// browser cannot make direct connections, what to do, and the games that need none — in the
// lobby (no room is created for nothing) and in a room opened from a link; the other player hears
// it through the relay. Neither side is ever told that its network blocks the connection, also
// long after the relay's « both in the room, no channel » (DIRECT_MS); seats.test.mjs still
// checks that diagnosis for a network that really blocks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startRelay, launchBrowser, DESKTOP, screenshot } from './harness.mjs';
import { launchFirefox, firefoxPage, until, visible, clickNamed } from './firefox.mjs';

let relay;
let chromium;
let firefox;
let firefoxOff;
const told = [];

before(async () => {
  relay = await startRelay();
  [chromium, firefox, firefoxOff] = await Promise.all([
    launchBrowser(), launchFirefox(), launchFirefox({ 'media.peerconnection.enabled': false }),
  ]);
});

after(async () => {
  await Promise.all([firefoxOff?.close(), firefox?.close(), chromium?.close()]);
  await relay?.stop();
  if (told.length) console.log(`figure: navigation → the opponent told its browser has no WebRTC: ${told.map((t) => t.toFixed(0)).join(', ')} ms`);
});

/** A browser built without WebRTC, as far as a page can tell. */
const withoutWebRtc = () => { delete window.RTCPeerConnection; delete window.webkitRTCPeerConnection; };

/** What the page says (its main text), for the words it must never say. */
const text = (page) => page.evaluate(() => document.querySelector('main').innerText);

/** Waits until each page has asked the relay again whether the other player is in the room —
 * what a page does after 8 s in the room without a data channel (client/net, `DIRECT_MS`), and
 * the answer that would make it blame the networks — and checks that it never did. Playwright
 * and Puppeteer pages alike. */
async function neverBlamesTheNetwork(pages) {
  const relayAsked = (r) => new URL(r.url()).pathname.startsWith('/ws/') && r.status() !== 101;
  await Promise.all(pages.map((page) => page.waitForResponse(relayAsked, { timeout: 30000 })));
  for (const page of pages) {
    // The answer read and drawn.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const said = await text(page);
    assert.doesNotMatch(said, /bloquent|block a direct|autre réseau|another network/, said);
    assert.equal(await page.evaluate(() => document.querySelector('[data-blocked]')), null);
  }
}

test('the lobby without WebRTC says so at once, creates no room, and offers the local games (fr, en)', async () => {
  const { page, context, errors } = await firefoxPage(firefoxOff);
  await page.goto(`${relay.url}/moulin/distance`);
  await visible(page, '[data-no-webrtc]', 'Ce navigateur ne peut pas établir de connexion directe');
  assert.match(await page.evaluate(() => document.querySelector('[data-no-webrtc]').innerText),
    /WebRTC y est désactivé ou absent\) : pour jouer à distance, activez WebRTC dans ses réglages ou ouvrez cette page dans un autre navigateur\.\s+Ou jouez sur cet appareil : à deux · contre l'ordinateur/);
  assert.equal(await page.evaluate(() => [...document.querySelectorAll('button')].some((b) => b.textContent.includes('Créer le salon'))), false);
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('[data-no-webrtc] a')].map((a) => a.getAttribute('href'))),
    ['/moulin', '/moulin/ordinateur']);
  await clickNamed(page, "contre l'ordinateur", '[data-no-webrtc] a');
  await until(page, () => location.pathname === '/moulin/ordinateur' && document.querySelector('[data-point="0"]') !== null);
  assert.deepEqual(errors, []);
  await context.close();

  // The same in English, in a Chromium without RTCPeerConnection.
  const en = await chromium.newContext({ viewport: DESKTOP, locale: 'en-US' });
  await en.addInitScript(withoutWebRtc);
  const p = await en.newPage();
  await p.goto(`${relay.url}/meta-morpion/distance`);
  await p.locator('[data-no-webrtc]', { hasText: 'This browser cannot make direct connections to another one (WebRTC is turned off or missing in it)' }).waitFor();
  assert.equal(await p.getByRole('button', { name: 'Create the room' }).count(), 0);
  await p.locator('[data-no-webrtc]').getByRole('link', { name: 'two players' }).waitFor();
  await screenshot(p, 'no-webrtc-lobby-en-desktop');
  await en.close();
});

test('a guest without WebRTC is told at once, and the host hears it through the relay, never about networks', async () => {
  const hostContext = await chromium.newContext({ viewport: DESKTOP });
  const host = await hostContext.newPage();
  await host.goto(`${relay.url}/moulin/distance`);
  await host.getByRole('button', { name: 'Créer le salon' }).click();
  const link = await host.locator('[data-invite-link]').inputValue();

  const g = await firefoxPage(firefoxOff);
  const t0 = Date.now();
  await g.page.goto(link);
  // Before anything is clicked: the notice, with the way out.
  await visible(g.page, '[data-no-webrtc]', 'Ce navigateur ne peut pas établir de connexion directe avec celui de votre adversaire');
  assert.deepEqual(await g.page.evaluate(() => [...document.querySelectorAll('[data-no-webrtc] a')].map((a) => a.getAttribute('href'))),
    ['/moulin', '/moulin/ordinateur']);
  await visible(g.page, '[data-status]', 'Pas de connexion directe depuis ce navigateur.');
  await screenshot(g.page, 'no-webrtc-guest-firefox-desktop');
  // The host, through the relay: one sentence by the board, the presence line.
  await host.locator('[data-status]', { hasText: 'Le navigateur de votre adversaire ne peut pas établir de connexion directe (WebRTC y est désactivé ou absent)' }).waitFor({ timeout: 20000 });
  told.push(Date.now() - t0);
  assert.equal(await host.locator('[data-presence]').getAttribute('data-presence'), 'no-webrtc');
  await screenshot(host, 'no-webrtc-host-desktop');
  await neverBlamesTheNetwork([host, g.page]);
  // Still said once the relay has been asked whether both are in the room.
  assert.equal(await host.locator('[data-presence]').getAttribute('data-presence'), 'no-webrtc');
  assert.deepEqual(g.errors, []);
  await g.context.close();
  await hostContext.close();
});

test('a host whose browser lost WebRTC says so (in English), and its guest hears it', async () => {
  const hostContext = await chromium.newContext({ viewport: DESKTOP, locale: 'en-US' });
  const host = await hostContext.newPage();
  await host.goto(`${relay.url}/meta-morpion/distance`);
  await host.getByRole('button', { name: 'Create the room' }).click();
  const link = await host.locator('[data-invite-link]').inputValue();
  // WebRTC goes (a setting changed, another build): the host reopens its room.
  await hostContext.addInitScript(withoutWebRtc);
  await host.reload();
  await host.locator('[data-no-webrtc]', { hasText: "This browser cannot make a direct connection to your opponent's (WebRTC is turned off or missing in it)" }).waitFor();
  assert.equal(await host.locator('main').getAttribute('data-seat'), 'host');

  const g = await firefoxPage(firefox);
  const t0 = Date.now();
  await g.page.goto(link);
  await visible(g.page, '[data-status]', 'Le navigateur de votre adversaire ne peut pas établir de connexion directe');
  told.push(Date.now() - t0);
  assert.equal(await g.page.evaluate(() => document.querySelector('[data-presence]').dataset.presence), 'no-webrtc');
  await neverBlamesTheNetwork([host, g.page]);
  assert.deepEqual(g.errors, []);
  await g.context.close();
  await hostContext.close();
});
