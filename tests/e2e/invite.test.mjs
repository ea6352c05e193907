// Invitations on a phone, end to end in headless Chromium, in French and English, on a desktop
// and a phone: the host's panel draws the link as a QR code — read back here from the
// screenshot's pixels, in the light and the dark theme, and from the SVG's path —, copies the
// link and the code (and says when the browser refuses), and offers the share sheet only where
// the browser has one (a stub of `navigator.share` stands for a phone's: headless Chromium on
// Linux has none), with the link and a short text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { relayAndBrowser, DESKTOP, PHONE, SHOTS, screenshot } from './harness.mjs';
import { decodePng, modulesFromPath, modulesFromPixels, readQr, versionFor } from './qr-read.mjs';

const ctx = {};
relayAndBrowser(ctx);

const WORDS = {
  fr: {
    locale: 'fr-FR', remote: 'Jouer à distance', create: 'Créer le salon', copyLink: 'Copier le lien',
    linkCopied: 'Lien copié ✓', copyCode: 'Copier le code', codeCopied: 'Code copié ✓',
    codeFailed: 'Copie impossible ici : sélectionnez le code', share: 'Partager…',
    qr: "Code QR du lien d'invitation", text: { morris: 'Rejoins-moi pour une partie de jeu du moulin !', meta: 'Rejoins-moi pour une partie de Méta Morpion !' },
  },
  en: {
    locale: 'en-GB', remote: 'Play remotely', create: 'Create the room', copyLink: 'Copy the link',
    linkCopied: 'Link copied ✓', copyCode: 'Copy the code', codeCopied: 'Code copied ✓',
    codeFailed: 'Copying is not possible here: select the code', share: 'Share…',
    qr: 'QR code of the invitation link', text: { morris: "Join me for a game of Nine Men's Morris!", meta: 'Join me for a game of Ultimate tic-tac-toe!' },
  },
};

/** A host in its own context: `share` stubs `navigator.share` (recording what it is given, and
 * rejecting as a share sheet closed without sharing does); `refuse` makes the clipboard refuse. */
async function host({ lang, viewport, share = false, refuse = false, colorScheme = 'light' }) {
  const context = await ctx.browser.newContext({
    viewport, locale: WORDS[lang].locale, colorScheme,
    ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}),
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.relay.url });
  await context.addInitScript(({ share, refuse }) => {
    if (share) {
      window.__shared = [];
      Navigator.prototype.share = function (data) {
        window.__shared.push({ ...data });
        return Promise.reject(new DOMException('Share canceled', 'AbortError'));
      };
    }
    if (refuse) {
      Clipboard.prototype.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    }
  }, { share, refuse });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { page, context, errors };
}

/** Lobby → create the room; returns the link and code. */
async function createRoom(page, lang, game) {
  const w = WORDS[lang];
  await page.goto(`${ctx.relay.url}/${game === 'morris' ? 'moulin' : 'meta-morpion'}/distance`);
  await page.getByRole('button', { name: w.create }).click();
  const box = page.locator('[data-invite-link]');
  await box.waitFor();
  return { link: await box.inputValue(), code: await page.locator('[data-code]').getAttribute('data-code') };
}

/** The drawn QR code, checked against the link: its hooks, its path, and its pixels. */
async function checkQr(page, lang, link, shot) {
  const svg = page.getByRole('img', { name: WORDS[lang].qr });
  await svg.waitFor();
  assert.equal(await svg.getAttribute('data-qr-text'), link, 'it says it encodes the link');
  const size = Number(await svg.getAttribute('data-qr'));
  const version = versionFor(Buffer.byteLength(link), 'M');
  assert.equal(size, 4 * version + 17, `version ${version} at level M for ${link.length} bytes`);
  assert.equal(await svg.getAttribute('viewBox'), `0 0 ${size + 8} ${size + 8}`, 'a quiet zone of 4');
  // The path, read.
  const fromPath = readQr(modulesFromPath(await svg.locator('path').getAttribute('d'), size));
  assert.deepEqual([fromPath.text, fromPath.level, fromPath.version], [link, 'M', version]);
  // The pixels, read: big enough, dark on light whatever the theme.
  const box = await svg.boundingBox();
  assert.ok(box.width >= 220 && Math.abs(box.width - box.height) < 1, `${box.width}×${box.height} CSS px`);
  assert.ok(box.width / (size + 8) >= 3.4, `${(box.width / (size + 8)).toFixed(2)} CSS px a module`);
  const pixels = modulesFromPixels(decodePng(await svg.screenshot()), size + 8);
  assert.ok(pixels.quietLight, 'the quiet zone is light');
  assert.ok(pixels.darkest - pixels.lightest > 200, `contrast: dark modules ≤ ${pixels.lightest}, light ≥ ${pixels.darkest}`);
  const fromPixels = readQr(pixels.grid);
  assert.equal(fromPixels.text, link);
  if (shot) {
    await screenshot(page, shot);
    // The panel alone, as the player sees it: a page's full height is a long picture on a phone.
    mkdirSync(SHOTS, { recursive: true });
    await page.locator('.panel.invite').screenshot({ path: path.join(SHOTS, `${shot}-panel.png`) });
  }
  return fromPixels;
}

for (const [lang, viewport, game, name] of [
  ['fr', DESKTOP, 'morris', 'desktop'],
  ['fr', PHONE, 'meta', 'phone'],
  ['en', DESKTOP, 'meta', 'desktop'],
  ['en', PHONE, 'morris', 'phone'],
]) {
  test(`${lang}, ${name}: the QR code reads as the link; the link and the code copy; a share sheet gets the link`, async () => {
    const w = WORDS[lang];
    const h = await host({ lang, viewport, share: true });
    const { link, code } = await createRoom(h.page, lang, game);
    assert.match(link, new RegExp(`/${game === 'morris' ? 'moulin' : 'meta-morpion'}/salon#g=${game}&t=\\d+&r=[0-9a-f]{32}&k=[0-9a-f]{64}&s=[0-9a-f]{32}`));
    const read = await checkQr(h.page, lang, link, `invite-${lang}-${game}-${name}`);
    console.log(`figure: ${lang} ${name}: a link of ${link.length} bytes, version ${read.version}-${read.level}, mask ${read.mask}`);
    // The whole code in view on a phone, under the link; beside the link on a desktop.
    const qr = await h.page.locator('svg[data-qr]').boundingBox();
    const field = await h.page.locator('[data-invite-link]').boundingBox();
    if (viewport === PHONE) {
      assert.ok(qr.x >= 0 && qr.x + qr.width <= PHONE.width, 'inside the phone\'s width');
      assert.ok(qr.y > field.y, 'under the link');
    } else {
      assert.ok(qr.x > field.x + field.width, 'beside the link');
    }
    // Copy the link, then the code: each button says it, the clipboard has it.
    await h.page.getByRole('button', { name: w.copyLink }).click();
    await h.page.getByRole('button', { name: w.linkCopied }).waitFor();
    assert.equal(await h.page.evaluate(() => navigator.clipboard.readText()), link);
    await h.page.getByRole('button', { name: w.copyCode }).click();
    await h.page.getByRole('button', { name: w.codeCopied }).waitFor();
    assert.equal(await h.page.evaluate(() => navigator.clipboard.readText()), code);
    assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    // The link's button is back to its words: one « copied » at a time.
    await h.page.getByRole('button', { name: w.copyLink }).waitFor();
    // Share: the sheet is given the link and the text; closing it without sharing is no error.
    await h.page.getByRole('button', { name: w.share }).click();
    await h.page.waitForFunction(() => window.__shared.length === 1);
    assert.deepEqual(await h.page.evaluate(() => window.__shared), [{ text: w.text[game], url: link }]);
    assert.deepEqual(h.errors, []);
    await h.context.close();
  });
}

test('without a share sheet no « Partager » button; a clipboard that refuses is said; the dark theme keeps the code dark on light', async () => {
  const h = await host({ lang: 'fr', viewport: PHONE, refuse: true, colorScheme: 'dark' });
  const { link } = await createRoom(h.page, 'fr', 'morris');
  await h.page.locator('[data-copy="code"]').waitFor();
  const hasShare = await h.page.evaluate(() => 'share' in navigator);
  console.log(`figure: headless Chromium ${hasShare ? 'has' : 'has no'} navigator.share`);
  assert.equal(await h.page.locator('[data-share]').count(), hasShare ? 1 : 0);
  assert.equal(await h.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await checkQr(h.page, 'fr', link, 'invite-fr-morris-dark-phone');
  await h.page.getByRole('button', { name: 'Copier le code' }).click();
  await h.page.locator('.notice', { hasText: WORDS.fr.codeFailed }).waitFor();
  await h.page.getByRole('button', { name: 'Copier le lien' }).click();
  await h.page.locator('.notice', { hasText: 'Copie impossible ici : sélectionnez le lien' }).waitFor();
  assert.equal(await h.page.locator('.notice', { hasText: WORDS.fr.codeFailed }).count(), 0, 'one failure said at a time');
  assert.deepEqual(h.errors, []);
  await h.context.close();

  // Nor where the browser has none at all (deleted), on a desktop in English.
  const e = await host({ lang: 'en', viewport: DESKTOP });
  await e.context.addInitScript(() => { delete Navigator.prototype.share; });
  await createRoom(e.page, 'en', 'meta');
  await e.page.getByRole('button', { name: 'Copy the code' }).waitFor();
  assert.equal(await e.page.getByRole('button', { name: 'Share…' }).count(), 0);
  await e.context.close();
});

test('the panel goes once the guest comes', async () => {
  const h = await host({ lang: 'fr', viewport: DESKTOP });
  const { link } = await createRoom(h.page, 'fr', 'meta');
  const g = await host({ lang: 'fr', viewport: PHONE });
  await g.page.goto(link);
  for (const p of [h.page, g.page]) await p.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  assert.equal(await h.page.locator('svg[data-qr]').count(), 0);
  assert.equal(await g.page.locator('svg[data-qr]').count(), 0, 'the guest never had one');
  assert.deepEqual([...h.errors, ...g.errors], []);
  await h.context.close();
  await g.context.close();
});
