// Pairing without a relay, its texts (issue #25; client/net/src/pairing.rs): a browser's offer
// and the other's answer cross only as the compact texts, and the descriptions rebuilt from them
// open a data channel — Chromium with Chromium (local addresses shown, then hidden behind mDNS
// names), and Chromium with Firefox ESR both ways. No relay: the test page is about:blank.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, CHROMIUM_ARGS } from './harness.mjs';
import { launchFirefox } from './firefox.mjs';

const PAIRING = process.env.PAIRING_BIN
  || path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'examples', 'pairing');
const figures = [];
after(() => figures.forEach((f) => console.log(f)));

/** The text for a description, and the description the other side rebuilds from it alone. */
function compact(sdp, kind) {
  return JSON.parse(execFileSync(PAIRING, [kind], { input: sdp }).toString());
}

/** In the page: one peer connection with the negotiated channel the site uses (id 0). */
function setUp() {
  window.pc = new RTCPeerConnection({ iceServers: [] });
  window.dc = pc.createDataChannel('m', { negotiated: true, id: 0 });
  window.got = new Promise((r) => { dc.onmessage = (e) => r(e.data); });
  window.opened = new Promise((r) => { dc.onopen = r; });
  window.gathered = () => new Promise((r) => {
    if (pc.iceGatheringState === 'complete') r();
    else pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && r());
  });
}

/** Pairs `host` and `guest` through the texts only; returns the two texts. */
async function pair(host, guest) {
  await host.evaluate(setUp);
  await guest.evaluate(setUp);
  const offer = compact(await host.evaluate(async () => {
    await pc.setLocalDescription(await pc.createOffer());
    await gathered();
    return pc.localDescription.sdp;
  }), 'offer');
  const answer = compact(await guest.evaluate(async (sdp) => {
    await pc.setRemoteDescription({ type: 'offer', sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered();
    return pc.localDescription.sdp;
  }, offer.sdp), 'answer');
  await host.evaluate((sdp) => pc.setRemoteDescription({ type: 'answer', sdp }), answer.sdp);
  await Promise.all([host.evaluate(() => opened), guest.evaluate(() => opened)]);
  await host.evaluate(() => dc.send('e5'));
  assert.equal(await guest.evaluate(() => got), 'e5');
  return [offer.text, answer.text];
}

async function chromiumPages(args) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args });
  const pages = [await (await browser.newContext()).newPage(), await (await browser.newContext()).newPage()];
  return { browser, pages };
}

test('the texts alone pair two Chromium pages, local addresses shown or hidden', async (t) => {
  if (!existsSync(PAIRING)) {
    t.skip(`${PAIRING} is not built: cargo build -p client-net --example pairing`);
    return;
  }
  const shown = await chromiumPages(CHROMIUM_ARGS);
  const hidden = await chromiumPages(CHROMIUM_ARGS.filter((a) => !a.includes('WebRtcHideLocalIpsWithMdns')));
  try {
    for (const [name, { pages }] of [['addresses', shown], ['mDNS names', hidden]]) {
      const [offer, answer] = await pair(pages[0], pages[1]);
      assert.match(offer, /^[A-Za-z0-9_-]+$/);
      figures.push(`figure: pairing texts, Chromium with ${name}: offer ${offer.length}, answer ${answer.length} characters`);
    }
  } finally {
    await shown.browser.close();
    await hidden.browser.close();
  }
});

test('the texts alone pair Chromium and Firefox ESR, either one offering', async (t) => {
  if (!existsSync(PAIRING)) {
    t.skip(`${PAIRING} is not built`);
    return;
  }
  const { browser, pages } = await chromiumPages(CHROMIUM_ARGS);
  const firefox = await launchFirefox();
  try {
    const fx = await (await firefox.createBrowserContext()).newPage();
    await fx.goto('about:blank');
    const [offer, answer] = await pair(pages[0], fx);
    figures.push(`figure: pairing texts, Chromium offers to Firefox: offer ${offer.length}, answer ${answer.length} characters`);
    const fx2 = await (await firefox.createBrowserContext()).newPage();
    await fx2.goto('about:blank');
    const [offer2, answer2] = await pair(fx2, pages[1]);
    figures.push(`figure: pairing texts, Firefox offers to Chromium: offer ${offer2.length}, answer ${answer2.length} characters`);
  } finally {
    await browser.close();
    await firefox.close();
  }
});
