// Languages end to end, in headless Chromium (docs/architecture.md, « Languages »): the first
// visit follows the browser's languages; the header's « Langue » switch changes every text of
// the page at once — mid-game, the game untouched — and is remembered (localStorage
// `moulin-lang-v1`) across reloads, tabs and both bundles; `<html lang>` and the title follow.
// Every page and dialog in English shows no text of the French catalogue (client/i18n/fr.txt),
// visible or for screen readers (aria-label, title, placeholder), and back in French none of
// the English one; two players of one room each read it in their own language. Screenshots of
// the English pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ROOT, relayAndBrowser, DESKTOP, screenshot, morrisClicks, cell, boardString,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const ctx = {};
const { createRoom, join, player } = roomKit(ctx, { connect: [], latency: [] });

relayAndBrowser(ctx);


/** A catalogue's entries: { key, text }, the page section's too. */
function catalogue(lang) {
  const entries = [];
  for (const raw of readFileSync(path.join(ROOT, 'client/i18n', `${lang}.txt`), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || /^\[\w+\]$/.test(line)) continue;
    const at = line.indexOf('=');
    entries.push({ key: line.slice(0, at).trim(), text: line.slice(at + 1).trim() });
  }
  return entries;
}

const FR = catalogue('fr');
const EN = catalogue('en');

/**
 * The telltales of a language: the pieces of its texts (split at their placeholders and
 * punctuation, quotation marks of both languages included) that the other language never says, of four letters or more. A page in the other
 * language must contain none of them as whole words.
 */
function telltales(mine, theirs) {
  const pieces = (entries) => new Set(entries.flatMap(({ text }) => text
    .split(/\{\w+\}|[«»“”:;,.!?()…·—–/]|\s-\s/u).map((p) => p.trim()).filter((p) => /\p{L}{4}/u.test(p))));
  const other = pieces(theirs);
  // « Date », « Note »…: the same word in both languages tells nothing.
  const otherWords = new Set([...other].flatMap((p) => p.split(/\s+/)));
  return [...pieces(mine)].filter((p) => !other.has(p) && !(p.split(/\s+/).length === 1 && otherWords.has(p)));
}
const FRENCH = telltales(FR, EN);
const ENGLISH = telltales(EN, FR);

/** Everything a page says: its text, its labels for screen readers, its title. */
const pageWords = (page) => page.evaluate(() => {
  const parts = [document.title, document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      if (e.hasAttribute(a)) parts.push(e.getAttribute(a));
    }
  }
  return parts.join('\n');
});

/** The telltales of the wrong language found on the page, with where. */
async function wrongWords(page, lang) {
  const words = await pageWords(page);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Each telltale found, with the line it is in.
  return (lang === 'en' ? FRENCH : ENGLISH).flatMap((p) => {
    const re = new RegExp(`(?<!\\p{L})${escape(p)}(?!\\p{L})`, 'u');
    const line = words.split('\n').find((l) => re.test(l));
    return line === undefined ? [] : [`${p} (in « ${line.trim().slice(0, 120)} »)`];
  });
}

async function assertSpeaks(page, lang, where) {
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang, `${where}: <html lang>`);
  const wrong = await wrongWords(page, lang);
  assert.deepEqual(wrong, [], `${where} in ${lang} says: ${wrong.join(' | ')}`);
}

async function open(pathname, { locale = 'en-GB', serviceWorkers = 'block' } = {}) {
  const context = await ctx.browser.newContext({ viewport: DESKTOP, locale, serviceWorkers });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(ctx.relay.url + pathname);
  await page.locator('main').first().waitFor();
  return { page, context, errors };
}

const langSwitch = (page) => page.locator('lang-switch select');
async function switchTo(page, lang) {
  await langSwitch(page).selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  // The app redraws at its next frame.
  await page.waitForFunction((l) => (l === 'en') === document.title.includes('Morris')
    || document.title.includes(l === 'en' ? 'viewer' : 'Visionneuse'), lang).catch(() => {});
}

test('the first visit follows the browser\'s languages; French when it speaks none of ours', async () => {
  for (const [locale, lang] of [['en-GB', 'en'], ['en-US', 'en'], ['fr-FR', 'fr'], ['fr-CA', 'fr'], ['de-DE', 'fr']]) {
    const { page, context } = await open('/', { locale });
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang, locale);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await assertSpeaks(page, lang, `home for ${locale}`);
    assert.equal(await langSwitch(page).inputValue(), lang);
    await context.close();
  }
  // The browser's list in order: German first, then English.
  const context = await ctx.browser.newContext({ viewport: DESKTOP, locale: 'de-DE', serviceWorkers: 'block' });
  await context.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'en-US', 'fr'] }));
  const page = await context.newPage();
  await page.goto(`${ctx.relay.url}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await context.close();
});

test('every page and dialog in English says no French, and back in French no English', async () => {
  const pages = [
    ['/', 'home'],
    ['/moulin', 'hot-seat Morris'],
    ['/meta-morpion', 'hot-seat Meta'],
    ['/moulin/ordinateur', 'computer Morris'],
    ['/meta-morpion/ordinateur', 'computer Meta'],
    ['/moulin/distance', 'lobby Morris'],
    ['/meta-morpion/distance', 'lobby Meta'],
    ['/partie', 'viewer'],
    ['/nulle-part', 'not found'],
  ];
  for (const [pathname, where] of pages) {
    const { page, context, errors } = await open(pathname);
    // The Morris rules one by one, folded by default: unfolded, so that their words are read.
    if (where.endsWith('Morris') && !where.startsWith('lobby')) {
      await page.locator('details.custom-rules summary').click();
    }
    await assertSpeaks(page, 'en', where);
    if (where.startsWith('computer')) {
      // The settings come first; once begun, the game's own buttons.
      await page.locator('[data-setup]').getByRole('button', { name: 'Start' }).click();
      await page.locator('[data-setup]').waitFor({ state: 'detached' });
      await assertSpeaks(page, 'en', `${where}, begun`);
    }
    if (where.startsWith('hot-seat') || where.startsWith('computer')) {
      await page.getByRole('button', { name: 'New game' }).click();
      await page.getByRole('dialog').waitFor();
      await assertSpeaks(page, 'en', `${where}, new-game dialog`);
      await page.getByRole('button', { name: 'Back to the game' }).click();
    }
    await screenshot(page, `english-${where.replace(/ /g, '-').toLowerCase()}-desktop`);
    await switchTo(page, 'fr');
    await assertSpeaks(page, 'fr', where);
    assert.deepEqual(errors, [], where);
    await context.close();
  }
});

test('switching mid-game changes every text at once and nothing of the game; the choice is remembered', async () => {
  const { page, context, errors } = await open('/moulin', { locale: 'fr-FR' });
  await assertSpeaks(page, 'fr', 'hot-seat Morris');
  for (const token of 'a7 b6 d7 d6'.split(' ')) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
  // A refusal on the page: a point already taken.
  await page.locator('[data-point="0"]').click();
  await page.locator('.notice').waitFor();
  assert.equal(await page.locator('.notice').innerText(), 'Ce point est déjà occupé.');
  const before = await boardString(page, 'data-point', 24, ['B', 'R']);
  await switchTo(page, 'en');
  await page.locator('.status', { hasText: 'Blue to play' }).waitFor();
  assert.equal(await page.locator('.notice').innerText(), 'This point is already taken.');
  assert.equal(await page.title(), "Nine Men's Morris — two players");
  assert.equal(await boardString(page, 'data-point', 24, ['B', 'R']), before, 'the game is untouched');
  assert.equal(await page.locator('[data-ply]').count(), 5, 'the start and four turns');
  await assertSpeaks(page, 'en', 'hot-seat Morris mid-game');
  assert.equal(await page.evaluate(() => localStorage.getItem('moulin-lang-v1')), 'en');
  await screenshot(page, 'english-morris-mid-desktop');
  // Remembered: a reload, another tab, the other bundle (a room's page).
  await page.reload();
  await page.locator('[data-point]').first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  const other = await context.newPage();
  await other.goto(`${ctx.relay.url}/meta-morpion`);
  await other.locator('[data-cell]').first().waitFor();
  await assertSpeaks(other, 'en', 'another tab');
  // A switch in one tab reaches the other.
  await switchTo(page, 'fr');
  await other.waitForFunction(() => document.documentElement.lang === 'fr');
  await other.locator('.status', { hasText: 'Au tour de Bleu' }).waitFor();
  await assertSpeaks(other, 'fr', 'the other tab, switched from the first');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Morris heading and tab title name the game by its pieces in English, not in French', async () => {
  const { page, context, errors } = await open('/moulin');
  const heading = page.locator('main h1');
  const titled = (title) => page.waitForFunction((t) => document.title === t, title);
  assert.match(await heading.innerText(), /^Nine Men's Morris/);
  assert.equal(await page.title(), "Nine Men's Morris — two players");
  await page.locator('aside.rules').getByLabel('Rule set').selectOption({ label: "Twelve men's (diagonals)" });
  await heading.filter({ hasText: "Twelve Men's Morris" }).waitFor();
  await titled("Twelve Men's Morris — two players");
  // A twelve-piece game, once begun, keeps its name in the tab after a reload.
  await page.locator('[data-point="0"]').click();
  await page.locator('[data-ply]').nth(1).waitFor();
  await page.reload();
  await heading.filter({ hasText: "Twelve Men's Morris" }).waitFor();
  await titled("Twelve Men's Morris — two players");
  await page.getByRole('button', { name: 'New game' }).click();
  await page.getByRole('dialog').getByLabel('Rule set').selectOption({ label: 'Lasker (10 pieces)' });
  await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
  await heading.filter({ hasText: "Ten Men's Morris" }).waitFor();
  await titled("Ten Men's Morris — two players");
  await switchTo(page, 'fr');
  await heading.filter({ hasText: 'Jeu du moulin' }).waitFor();
  await titled('Jeu du moulin — deux joueurs');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Meta Morpion hot-seat end, the computer\'s settings and the viewer\'s verdicts in English', async () => {
  const { page, context, errors } = await open('/meta-morpion');
  // A refusal and the required-board hint.
  await page.locator(`[data-cell="${cell('e5')}"]`).click();
  await page.locator('.status', { hasText: 'play in the board in the centre' }).waitFor();
  await page.locator(`[data-cell="${cell('a9')}"]`).click();
  assert.match(await page.locator('.notice').innerText(), /^You must play in the board in the centre\.$/);
  await page.getByRole('button', { name: 'Suggest a move' }).click();
  await page.locator('.hint-line', { hasText: 'Suggestion: play' }).waitFor({ timeout: 15000 });
  await assertSpeaks(page, 'en', 'Meta with a refusal and a hint');
  await context.close();

  const computer = await open('/moulin/ordinateur');
  await computer.page.getByRole('radio', { name: 'Strong' }).check();
  await computer.page.getByRole('radio', { name: 'Red' }).check();
  await computer.page.locator('[data-setup]').getByRole('button', { name: 'Start' }).click();
  await computer.page.locator('.status', { hasText: /computer/ }).waitFor({ timeout: 15000 });
  await assertSpeaks(computer.page, 'en', 'computer Morris, Red against Strong');
  await computer.context.close();

  const viewer = await open('/partie');
  await viewer.page.locator('textarea').fill('[Game "meta"]\ne5 e5');
  await viewer.page.getByRole('button', { name: /Open|Check/ }).first().click();
  await viewer.page.locator('[data-verified="false"]').waitFor();
  assert.match(await viewer.page.locator('[data-verified]').innerText(), /“e5”/);
  await assertSpeaks(viewer.page, 'en', 'viewer, a record refused');
  await viewer.page.locator('textarea').fill('[Game "morris"]\na7 b6 d7 d6 g7xb6');
  await viewer.page.getByRole('button', { name: /Open|Check/ }).first().click();
  await viewer.page.locator('[data-verified="true"]').waitFor();
  await assertSpeaks(viewer.page, 'en', 'viewer, a record replayed');
  await screenshot(viewer.page, 'english-viewer-record-desktop');
  assert.deepEqual([...errors, ...computer.errors, ...viewer.errors], []);
  await viewer.context.close();
});

test('a French host and an English guest each read their twelve-piece room in their own language', async () => {
  const host = await player(DESKTOP);
  const guestContext = await ctx.browser.newContext({ viewport: DESKTOP, locale: 'en-GB' });
  const guest = { context: guestContext, page: await guestContext.newPage(), errors: [] };
  guest.page.on('pageerror', (e) => guest.errors.push(String(e)));
  const { link } = await createRoom(host.page, 'morris', undefined, 'twelve');
  await assertSpeaks(host.page, 'fr', 'the host\'s waiting room');
  await join(guest.page, host.page, link);
  // Twelve pieces a side: the English page names the game by them, the French one does not.
  await guest.page.locator('main h1', { hasText: "Twelve Men's Morris" }).waitFor();
  await guest.page.waitForFunction(() => document.title.endsWith("Twelve Men's Morris — remote"));
  await host.page.waitForFunction(() => document.title.endsWith('Jeu du moulin — à distance'));
  await host.page.locator('[data-point="9"]').click();
  await guest.page.locator('[data-point="9"][data-piece="0"]').waitFor();
  await assertSpeaks(guest.page, 'en', 'the guest\'s room');
  await assertSpeaks(host.page, 'fr', 'the host\'s room');
  await guest.page.getByRole('button', { name: 'Offer a draw' }).click();
  await host.page.locator('[data-proposal="theirs"]').waitFor();
  await assertSpeaks(host.page, 'fr', 'the host\'s proposal dialog');
  await assertSpeaks(guest.page, 'en', 'the guest\'s waiting proposal');
  await screenshot(guest.page, 'english-room-proposal-desktop');
  // The guest switches mid-game: the room goes on.
  await switchTo(guest.page, 'fr');
  await assertSpeaks(guest.page, 'fr', 'the guest\'s room, switched');
  await host.page.getByRole('button', { name: 'Refuser' }).click();
  await guest.page.locator('[role="status"], .notice', { hasText: 'refusé' }).first().waitFor();
  assert.deepEqual([...host.errors, ...guest.errors], []);
  await host.context.close();
  await guest.context.close();
});
