// Hot-seat end to end, in headless Chromium against the relay serving the release client:
// complete games of both games by clicking and by keyboard, undo (selection, pending capture,
// after the end), new game with confirmation and cancel, the Morris turn limit (invalid value
// included), no request leaving the page, screenshots at desktop and phone widths, and the time
// from navigation to an interactive board.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startRelay, launchBrowser, DESKTOP, PHONE, screenshot, engineReplay, point, morrisClicks,
  cell, boardString, tabIntoBoard, arrowTo, morrisCoords, metaCoords, median, MORRIS_GAME, META_GAME,
} from './harness.mjs';

let relay;
let browser;

before(async () => {
  relay = await startRelay();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await relay?.stop();
});

/** A fresh page (own context: nothing shared) that records every request and page error. */
async function open(path, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport, ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}) });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(relay.url + path);
  return { page, context, requests, errors };
}

const status = (page) => page.locator('[data-status]');
const morrisPoint = (page, name) => page.locator(`[data-point="${point(name)}"]`);

async function playMorrisByClicks(page, record) {
  for (const token of record.split(' ')) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
}

async function playMorrisByKeys(page, record) {
  await tabIntoBoard(page, 'data-point');
  for (const token of record.split(' ')) {
    for (const p of morrisClicks(token)) {
      await arrowTo(page, 'data-point', p, morrisCoords);
      await page.keyboard.press(p % 2 ? 'Enter' : ' ');
    }
  }
}

async function playMetaByClicks(page, record) {
  for (const name of record.split(' ')) await page.locator(`[data-cell="${cell(name)}"]`).click();
}

async function playMetaByKeys(page, record) {
  await tabIntoBoard(page, 'data-cell');
  for (const name of record.split(' ')) {
    await arrowTo(page, 'data-cell', cell(name), metaCoords);
    await page.keyboard.press('Enter');
  }
}

test('the home page offers both games and nothing leaves the page', async () => {
  const { page, context, requests, errors } = await open('/');
  await page.getByRole('heading', { name: 'Jeu du moulin' }).waitFor();
  await page.getByRole('heading', { name: 'Méta Morpion' }).waitFor();
  await screenshot(page, 'home-desktop');
  await page.getByRole('link', { name: 'Deux joueurs sur cet appareil' }).first().click();
  await page.locator('[data-point="0"]').waitFor();
  assert.equal(new URL(page.url()).pathname, '/moulin');
  await page.goBack();
  await page.getByRole('heading', { name: 'Méta Morpion' }).waitFor();
  await page.getByRole('link', { name: 'Deux joueurs sur cet appareil' }).nth(1).click();
  await page.locator('[data-cell="40"]').waitFor();
  for (const url of requests) assert.ok(url.startsWith(relay.url), `request left the site: ${url}`);
  assert.deepEqual(errors, []);
  const missing = await open('/nulle-part');
  await missing.page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
  await missing.context.close();
  await context.close();
});

for (const [how, play] of [['clicking', playMorrisByClicks], ['keyboard', playMorrisByKeys]]) {
  test(`a complete Morris game by ${how}`, async () => {
    const { page, context, requests, errors } = await open('/moulin');
    await page.locator('[data-point="0"]').waitFor();
    const loaded = requests.length;
    if (how === 'clicking') await screenshot(page, 'morris-start-desktop');
    const tokens = MORRIS_GAME.split(' ');
    await play(page, tokens.slice(0, 12).join(' '));
    if (how === 'clicking') await screenshot(page, 'morris-mid-desktop');
    await play(page, tokens.slice(12).join(' '));
    await page.locator('[data-status="won"]').waitFor();
    assert.equal(await status(page).getAttribute('data-winner'), '0');
    assert.match(await status(page).textContent(), /Bleu gagne : Rouge n'a plus assez de pions/);
    const expected = engineReplay('morris', MORRIS_GAME);
    assert.equal(await boardString(page, 'data-point', 24, 'BR'), expected.board);
    if (how === 'clicking') await screenshot(page, 'morris-end-desktop');
    assert.equal(requests.length, loaded, 'no request while playing');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('Morris undo: a bare selection, a pending capture, and after the end', async () => {
  const { page, context } = await open('/moulin');
  const undo = page.getByRole('button', { name: 'Annuler le coup' });
  assert.ok(await undo.isDisabled());
  const tokens = MORRIS_GAME.split(' ');
  // Up to the capture of turn 7: c5 closes c5-c4-c3, the capture is pending.
  await playMorrisByClicks(page, tokens.slice(0, 6).join(' '));
  await morrisPoint(page, 'c5').click();
  assert.match(await status(page).textContent(), /Bleu a formé un moulin/);
  assert.ok((await page.locator('.capturable').count()) > 0, 'capturable pieces ringed');
  await undo.click();
  assert.equal(await morrisPoint(page, 'c5').getAttribute('data-piece'), null);
  assert.match(await status(page).textContent(), /Au tour de Bleu : posez un pion/);
  // Play it again with its capture: one undo takes back the whole turn.
  await morrisPoint(page, 'c5').click();
  await morrisPoint(page, 'a4').click();
  assert.equal(await morrisPoint(page, 'a4').getAttribute('data-piece'), null);
  await undo.click();
  assert.equal(await morrisPoint(page, 'a4').getAttribute('data-piece'), '1');
  assert.equal(await morrisPoint(page, 'c5').getAttribute('data-piece'), null);
  // Finish the game, select nothing, undo after the end, then a bare selection.
  await playMorrisByClicks(page, tokens.slice(6).join(' '));
  await page.locator('[data-status="won"]').waitFor();
  await undo.click();
  await page.locator('[data-status="playing"]').waitFor();
  assert.equal(await morrisPoint(page, 'f6').getAttribute('data-piece'), '1');
  await morrisPoint(page, 'd6').click();
  assert.equal(await page.locator('.selected').count(), 1);
  assert.ok((await page.locator('.destination').count()) > 0, 'destinations shown');
  await undo.click();
  assert.equal(await page.locator('.selected').count(), 0);
  assert.equal(await morrisPoint(page, 'd6').getAttribute('data-piece'), '0', 'only the selection');
  await context.close();
});

test('Morris new game asks first; the turn limit refuses bad values and draws at the limit', async () => {
  const { page, context } = await open('/moulin');
  const limit = page.getByLabel('Limite de tours (1 à 500)');
  await limit.fill('0');
  await page.getByText('La limite doit être un nombre entier de 1 à 500.').waitFor();
  await limit.fill('2.5');
  await page.getByText('La limite doit être un nombre entier de 1 à 500.').waitFor();
  await limit.fill('3');
  assert.equal(await page.locator('.rules .notice').count(), 0);
  await playMorrisByClicks(page, 'd6 b4');
  assert.ok(await limit.isDisabled(), 'locked after the first move');
  // Cancel keeps the game and its limit.
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await screenshot(page, 'morris-new-game-dialog-desktop');
  await page.getByRole('button', { name: 'Reprendre la partie' }).click();
  assert.equal(await dialog.count(), 0);
  assert.equal(await morrisPoint(page, 'd6').getAttribute('data-piece'), '0');
  await morrisPoint(page, 'a7').click();
  await page.locator('[data-status="draw"]').waitFor();
  assert.match(await status(page).textContent(), /limite de 3 tours/);
  // An invalid limit in the confirmation is refused without losing the game.
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await dialog.getByRole('spinbutton').fill('501');
  await page.getByRole('button', { name: 'Commencer' }).click();
  await dialog.getByText('La limite doit être un nombre entier de 1 à 500.').waitFor();
  assert.equal(await morrisPoint(page, 'a7').getAttribute('data-piece'), '0');
  await dialog.getByRole('spinbutton').fill('250');
  await page.getByRole('button', { name: 'Commencer' }).click();
  await page.locator('[data-status="playing"]').waitFor();
  assert.equal(await page.locator('[data-piece]').count(), 0);
  assert.equal(await limit.inputValue(), '250');
  assert.match(await page.locator('.progress').textContent(), /Tours joués : 0 sur 250/);
  // A refused action is explained.
  await morrisPoint(page, 'd6').click();
  await morrisPoint(page, 'd6').click();
  await page.getByText('Ce point est déjà occupé.').waitFor();
  await context.close();
});

for (const [how, play] of [['clicking', playMetaByClicks], ['keyboard', playMetaByKeys]]) {
  test(`a complete Méta Morpion game by ${how}`, async () => {
    const { page, context, requests, errors } = await open('/meta-morpion');
    await page.locator('[data-cell="40"]').waitFor();
    const loaded = requests.length;
    if (how === 'clicking') await screenshot(page, 'meta-start-desktop');
    const names = META_GAME.split(' ');
    await play(page, names.slice(0, 26).join(' '));
    if (how === 'clicking') await screenshot(page, 'meta-mid-desktop');
    await play(page, names.slice(26).join(' '));
    await page.locator('[data-status="won"]').waitFor();
    assert.equal(await status(page).getAttribute('data-winner'), '1');
    assert.match(await status(page).textContent(), /Rouge gagne : trois grilles alignées/);
    const expected = engineReplay('meta', META_GAME);
    assert.equal(await boardString(page, 'data-cell', 81, 'XO'), expected.cells);
    assert.equal(await page.locator('.small-board.winning').count(), 3);
    assert.ok(await page.getByText('Nulle').count() >= 1, 'the drawn board shows « Nulle »');
    if (how === 'clicking') await screenshot(page, 'meta-end-desktop');
    assert.equal(requests.length, loaded, 'no request while playing');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('Méta Morpion undo, required board hint, refusals and new game', async () => {
  const { page, context } = await open('/meta-morpion');
  const undo = page.getByRole('button', { name: 'Annuler le coup' });
  await page.locator(`[data-cell="${cell('e5')}"]`).click();
  assert.match(await status(page).textContent(), /jouez dans la grille au centre/);
  assert.match(await undo.getAttribute('class'), /blue/, 'undo takes the last mover colour');
  await page.locator(`[data-cell="${cell('a9')}"]`).click();
  await page.getByText('Vous devez jouer dans la grille au centre.').waitFor();
  await page.locator(`[data-cell="${cell('e4')}"]`).click();
  assert.match(await undo.getAttribute('class'), /red/);
  assert.match(await status(page).textContent(), /en bas au centre/);
  await undo.click();
  assert.match(await status(page).textContent(), /jouez dans la grille au centre/);
  await undo.click();
  assert.match(await status(page).textContent(), /choix libre/);
  assert.ok(await undo.isDisabled());
  // Play to the end, undo the winning move.
  await playMetaByClicks(page, META_GAME);
  await page.locator('[data-status="won"]').waitFor();
  await undo.click();
  await page.locator('[data-status="playing"]').waitFor();
  assert.equal(await page.locator('.small-board.winning').count(), 0);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await page.getByRole('button', { name: 'Reprendre la partie' }).click();
  assert.ok((await page.locator('[data-piece]').count()) > 40);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await page.getByRole('button', { name: 'Commencer' }).click();
  assert.equal(await page.locator('[data-piece]').count(), 0);
  await context.close();
});

test('phone width: the boards fit or scroll, screenshots of both games', async () => {
  for (const [path, game, sel, prefix] of [
    ['/moulin', MORRIS_GAME, '[data-point="0"]', 'morris'],
    ['/meta-morpion', META_GAME, '[data-cell="40"]', 'meta'],
  ]) {
    const { page, context } = await open(path, PHONE);
    await page.locator(sel).waitFor();
    await screenshot(page, `${prefix}-start-phone`);
    const tokens = game.split(' ');
    const half = Math.floor(tokens.length / 2);
    const play = prefix === 'morris' ? playMorrisByClicks : playMetaByClicks;
    await play(page, tokens.slice(0, half).join(' '));
    await screenshot(page, `${prefix}-mid-phone`);
    await play(page, tokens.slice(half).join(' '));
    await page.locator('[data-status="won"]').waitFor();
    await screenshot(page, `${prefix}-end-phone`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px: only the board may`);
    await context.close();
  }
});

test('navigation to an interactive board: median of 10 loads', async () => {
  const times = [];
  for (let i = 0; i < 10; i++) {
    const { page, context } = await open('/moulin');
    await page.locator('[data-point="0"]').waitFor();
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  const m = median(times);
  console.log(`figure: navigation to interactive Morris board, median of 10 loads: ${m.toFixed(0)} ms`);
  assert.ok(times.every((t) => t > 0));
});
