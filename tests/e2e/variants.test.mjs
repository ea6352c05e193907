// Morris rule variants on the local pages, end to end in headless Chromium (SPEC §12,
// docs/architecture.md « Rule variants in the client »): whole games by clicks in hot-seat under
// Lasker (placing or sliding while the reserve lasts) and Twelve Men's Morris (the diagonals
// drawn, a diagonal mill), each checked against `engine replay --rules`; the diagonals drawn
// only when in play; the rules one by one, an out-of-range number refused, the new-game
// confirmation (cancel keeps the game and its rules); a whole game against the computer under
// « Sans vol », its worker searching under those rules; the exported record of a variant game
// opened in the viewer (a « Règles » fact, the game replayed under them) and a bad Rules header
// refused in words; the page in English; screenshots at desktop and phone widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  relayAndBrowser, DESKTOP, PHONE, screenshot, engineReplay, engineAi, point, morrisClicks,
  boardString,
} from './harness.mjs';

const ctx = {};
relayAndBrowser(ctx);

// A whole hot-seat game under `lasker` (10 pieces, sliding while placing), won by Blue on
// pieces: made with `engine ai morris --rules lasker --level 1 --seed 6+n` for both sides (turn
// n), then kept as written, so that a change of the computer's play does not change the test.
// It slides during placement from turn 15 (e5-e4), captures after slides (e4-e5xa4), and both
// sides place and slide to the end.
const LASKER_GAME = 'd5 b4 f4 d2 c3 d6 d1 e3 c4 g1 c5xd6 f6 e5xb4 d7 e5-e4 a4 e4-e5xa4 g7 d5-d6 '
  + 'g4xf4 d6-d5xd2 e3-e4 c4-b4 f6-f4xd1 d5-d6 e4-e3 c4xe3 f4-f2 f4 g1-d1 a4xf2 d1-g1xd6 c3-d3 '
  + 'd7-a7 d3-c3xa7 g1-d7 c5-d5 d7-g1xd5 a4-a7 g7-a1 a7-a4xg4';
// A whole hot-seat game under `twelve` (12 pieces, the diagonals), made the same way (seed
// 1+n), won by Blue on pieces: turn 7 closes the diagonal a7-b6-c5 (a7xe5), illegal without
// the diagonals, and pieces later move along them (b6-c5).
const TWELVE_GAME = 'c5 e3 b2 f4 b6 e5 a7xe5 f2 f6 a1 b4xa1 g1xf6 c3 a1 e5 d6 f6 d1xc3 d5xd6 d7 '
  + 'g7xd7 d6 d7xd6 d6 c5-c4 f2-d2 b6-c5xd6 f4-f2xb2 a7-a4xd2 f2-d2 a4-a7xe3 a1-a4 b4-b6xd1 a4-f2 '
  + 'd5-d6xf2';

/** A fresh page (own context) recording requests and page errors. */
async function open(pathname, { viewport = DESKTOP, locale } = {}) {
  const context = await ctx.browser.newContext({
    viewport,
    ...(locale ? { locale } : {}),
    ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}),
  });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  context.on('request', (r) => { if (!r.serviceWorker()) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(ctx.relay.url + pathname);
  await page.locator('[data-point="0"]').waitFor();
  return { page, context, requests, errors };
}

const status = (page) => page.locator('[data-status]');
const links = (page) => page.locator('svg.morris-board line.link');
/** The rules choice on the page (not the dialog's). */
const ruleSet = (page) => page.locator('aside.rules').getByLabel('Règles du jeu');
/** The canonical rules of the game on the page (the rules panel's hook). */
const rulesInForce = (page) => page.locator('.rules-name').getAttribute('data-rules');

/** The rules panel and the history both say the rules in force, in these words. */
async function assertRulesSaid(page, words) {
  await page.locator('.rules-name').getByText(words).waitFor();
  assert.equal((await page.locator('[data-history-rules]').textContent()).trim(), words);
}

async function playByClicks(page, record) {
  for (const token of record.split(' ').filter(Boolean)) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
}

/** The engine's verdict on the game played, against the page: board, status and winner. */
async function assertAsTheEngine(page, record, rules) {
  const expected = engineReplay('morris', record, undefined, rules);
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), expected.board);
  const st = await status(page).getAttribute('data-status');
  assert.equal(st, expected.phase === 'over' ? (expected.winner === null ? 'draw' : 'won') : 'playing');
  if (expected.winner !== null) assert.equal(await status(page).getAttribute('data-winner'), String(expected.winner));
  assert.equal(await page.locator('main').getAttribute('data-record'), record);
  return expected;
}

test('a whole Lasker game by clicks: placing or sliding while the reserve lasts, as engine replay --rules lasker', async () => {
  const record = LASKER_GAME;
  const { page, context, requests, errors } = await open('/moulin');
  await ruleSet(page).selectOption({ label: 'Lasker (10 pions)' });
  assert.equal(await rulesInForce(page), 'pieces=10,diagonals=0,flying=1,lasker=1,quiet=0');
  await assertRulesSaid(page, 'Règles en vigueur : Lasker (10 pions).');
  await page.getByText(/règle de Lasker/).waitFor();
  assert.match(await page.locator('[data-player="0"] .detail').textContent(), /Pose ou déplacement \(10 jetons restants\)/);
  const loaded = requests.length;
  const tokens = record.split(' ');
  // Up to the first slide during placement: the status offers both.
  const slide = tokens.findIndex((t) => t.includes('-'));
  assert.ok(slide > 0, `the game slides while placing: ${record}`);
  await playByClicks(page, tokens.slice(0, slide).join(' '));
  const [from] = morrisClicks(tokens[slide]);
  await page.locator(`[data-point="${from}"]`).click();
  assert.equal(await page.locator('.selected').count(), 1, 'a piece that can slide is selected');
  assert.ok(await page.locator('.destination').count() > 0, 'its destinations shown');
  assert.match(await status(page).textContent(), /posez un pion ou déplacez-en un/);
  await screenshot(page, 'lasker-slide-desktop');
  // Clicking it again deselects; then the whole turn.
  await page.locator(`[data-point="${from}"]`).click();
  assert.equal(await page.locator('.selected').count(), 0);
  await playByClicks(page, tokens.slice(slide).join(' '));
  const expected = await assertAsTheEngine(page, record, 'lasker');
  assert.equal(expected.phase, 'over', record);
  await screenshot(page, 'lasker-end-desktop');
  assert.equal(requests.length, loaded, 'no request while playing');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a whole Twelve Men\'s Morris game by clicks: the diagonals drawn and played, as engine replay --rules twelve; its record in the viewer', async () => {
  const record = TWELVE_GAME;
  const { page, context, errors } = await open('/moulin');
  assert.equal(await links(page).count(), 32, 'the classic board');
  assert.equal(await page.locator('svg.morris-board[data-diagonals]').count(), 0);
  await ruleSet(page).selectOption({ label: 'Douze pions (diagonales)' });
  assert.equal(await links(page).count(), 40, 'four diagonals, two links each');
  assert.match(await page.locator('svg.morris-board').getAttribute('aria-label'), /quatre diagonales/);
  assert.match(await page.locator('[data-player="1"] .detail').textContent(), /12 jetons restants/);
  await page.getByText(/^Quatre diagonales relient/).waitFor();
  const tokens = record.split(' ');
  await playByClicks(page, tokens.slice(0, 14).join(' '));
  await screenshot(page, 'twelve-mid-desktop');
  await playByClicks(page, tokens.slice(14).join(' '));
  const expected = await assertAsTheEngine(page, record, 'twelve');
  assert.equal(expected.phase, 'over', record);
  assert.equal(expected.rules, 'pieces=12,diagonals=1,flying=1,lasker=0,quiet=0');
  await screenshot(page, 'twelve-end-desktop');
  // The exported record (the end-of-game link) says the rules, and the viewer replays it so.
  const href = await page.locator('[data-review]').getAttribute('href');
  const exported = decodeURIComponent(href.split('#r=')[1]);
  assert.match(exported, /^\[Rules "pieces=12,diagonals=1,flying=1,lasker=0,quiet=0"\]$/m);
  await page.locator('[data-review]').click();
  await page.locator('[data-verified="true"]').waitFor();
  const facts = await page.locator('dl.facts').innerText();
  assert.match(facts, /Règles\s+Douze pions \(diagonales\)/);
  assert.equal(await links(page).count(), 40, 'the viewer draws the diagonals');
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), expected.board);
  assert.equal(await page.locator('[data-ply]').count(), tokens.length + 1);
  await screenshot(page, 'twelve-viewer-desktop');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the rules one by one: diagonals only when in play, a refused number, the new-game confirmation', async () => {
  const { page, context } = await open('/moulin');
  const aside = page.locator('aside.rules');
  await aside.getByText('Régler les règles une à une').click();
  await aside.getByLabel('Quatre diagonales').check();
  assert.equal(await links(page).count(), 40);
  assert.equal(await ruleSet(page).inputValue(), '', '« Personnalisées »');
  await assertRulesSaid(page, 'Règles en vigueur : Personnalisées : 9 pions, diagonales.');
  await aside.getByLabel('Quatre diagonales').uncheck();
  assert.equal(await links(page).count(), 32);
  assert.equal(await ruleSet(page).inputValue(), 'nine', 'the classic game again');
  await aside.getByLabel('Pions par joueur').selectOption('11');
  await aside.getByLabel('Saut à trois pions').uncheck();
  const quiet = aside.getByLabel(/Nulle après N tours sans capture/);
  for (const bad of ['501', '-3', '2.5']) {
    await quiet.fill(bad);
    await aside.getByText('Le nombre de tours sans capture doit être un nombre entier de 0 à 500.').waitFor();
    assert.equal(await rulesInForce(page), 'pieces=11,diagonals=0,flying=0,lasker=0,quiet=0', bad);
  }
  await quiet.fill('40');
  assert.equal(await aside.locator('.notice').count(), 0);
  assert.equal(await rulesInForce(page), 'pieces=11,diagonals=0,flying=0,lasker=0,quiet=40');
  await assertRulesSaid(page, 'Règles en vigueur : Personnalisées : 11 pions, sans vol, nul après 40 tours sans prise.');
  await page.getByText(/Pas de saut/).waitFor();
  await page.getByText(/après 40 tours de suite sans capture/).waitFor();
  assert.match(await page.locator('[data-player="0"] .detail').textContent(), /11 jetons restants/);
  await screenshot(page, 'custom-rules-desktop');
  // Locked after the first move; the confirmation offers them; cancelling keeps game and rules.
  await playByClicks(page, 'd6');
  assert.ok(await ruleSet(page).isDisabled());
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Règles du jeu').selectOption({ label: 'Douze pions (diagonales)' });
  await screenshot(page, 'rules-new-game-dialog-desktop');
  await dialog.getByRole('button', { name: 'Reprendre la partie' }).click();
  assert.equal(await rulesInForce(page), 'pieces=11,diagonals=0,flying=0,lasker=0,quiet=40');
  assert.equal(await page.locator('[data-point="9"]').getAttribute('data-piece'), '0');
  assert.equal(await links(page).count(), 32);
  // A bad number in the confirmation starts nothing; a good choice starts under it.
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await dialog.getByLabel('Règles du jeu').selectOption({ label: 'Douze pions (diagonales)' });
  // Unfolded: the game's rules were set one by one; a named set chosen does not fold them.
  assert.equal(await dialog.locator('details.custom-rules[open]').count(), 1);
  await dialog.getByLabel(/Nulle après N tours sans capture/).fill('9999');
  await dialog.getByRole('button', { name: 'Commencer' }).click();
  await dialog.getByText('Le nombre de tours sans capture doit être un nombre entier de 0 à 500.').waitFor();
  assert.equal(await page.locator('[data-point="9"]').getAttribute('data-piece'), '0');
  await dialog.getByLabel(/Nulle après N tours sans capture/).fill('0');
  await dialog.getByRole('button', { name: 'Commencer' }).click();
  await page.locator('[data-status="playing"]').waitFor();
  assert.equal(await dialog.count(), 0);
  assert.equal(await rulesInForce(page), 'pieces=12,diagonals=1,flying=1,lasker=0,quiet=0');
  assert.equal(await page.locator('[data-piece]').count(), 0);
  assert.equal(await links(page).count(), 40);
  assert.equal(await ruleSet(page).inputValue(), 'twelve');
  await context.close();
});

test('a whole game against the computer under « Sans vol »: its worker plays under the rules; new game keeps them', async () => {
  const { page, context, errors } = await open('/moulin/ordinateur');
  // The rules are chosen with the level and side, before « Commencer ».
  const setup = page.locator('[data-setup]');
  await setup.getByRole('radio', { name: 'Débutant' }).check();
  await setup.getByLabel('Règles du jeu').selectOption({ label: 'Sans vol' });
  assert.equal(await rulesInForce(page), 'pieces=9,diagonals=0,flying=0,lasker=0,quiet=0');
  await setup.getByRole('button', { name: 'Commencer' }).click();
  const state = () => page.evaluate(() => {
    const d = document.querySelector('main').dataset;
    return { thinking: d.thinking === 'true', turns: Number(d.turns), record: d.record, human: Number(d.human),
      status: document.querySelector('[data-status]').dataset.status };
  });
  const waitForPlayer = (turns) => page.waitForFunction((turns) => {
    const d = document.querySelector('main').dataset;
    if (document.querySelector('[data-status]').dataset.status !== 'playing') return true;
    return d.thinking === 'false' && Number(d.turns) >= turns && Number(d.turns) % 2 === Number(d.human);
  }, turns, { timeout: 30000 });
  await waitForPlayer(0);
  let st = await state();
  let seed = 3;
  while (st.status === 'playing') {
    const token = engineAi('morris', st.record, { level: 1, seed: seed++, rules: 'noflying' });
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
    await waitForPlayer(st.turns + 2);
    st = await state();
  }
  // Every turn, the computer's included, is legal under « Sans vol »: the engine replays it so.
  const expected = await assertAsTheEngine(page, st.record, 'noflying');
  assert.equal(expected.phase, 'over');
  assert.equal(expected.rules, 'pieces=9,diagonals=0,flying=0,lasker=0,quiet=0');
  await screenshot(page, 'noflying-computer-end-desktop');
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Commencer' }).click();
  await page.locator('[data-status="playing"]').waitFor();
  assert.equal(await rulesInForce(page), 'pieces=9,diagonals=0,flying=0,lasker=0,quiet=0', 'kept');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the viewer: a record under other rules replays under them; a bad Rules header is refused in words', async () => {
  const { page, context } = await open('/moulin');
  await page.goto(`${ctx.relay.url}/partie`);
  const paste = async (text) => {
    await page.locator('[data-paste]').fill(text);
    await page.getByRole('button', { name: 'Ouvrir le texte collé' }).click();
  };
  // a7 b6 c5 is a mill on the diagonal only.
  await paste('[Game "morris"]\n[Rules "twelve"]\na7 d7 b6 d6 c5xd7\n');
  await page.locator('[data-verified="true"]').waitFor();
  assert.match(await page.locator('dl.facts').innerText(), /Règles\s+Douze pions \(diagonales\)/);
  assert.equal(await links(page).count(), 40);
  await paste('[Game "morris"]\na7 d7 b6 d6 c5xd7\n');
  await page.locator('[data-verified="false"]').waitFor();
  await paste('[Game "morris"]\n[Rules "ten"]\nd6\n');
  await page.locator('[data-verified="false"]').waitFor();
  assert.match(await page.locator('[data-verified]').textContent(),
    /Notation refusée : les règles de l'en-tête de la ligne 2 ne se lisent pas \(« ten » n'est pas un nom de règles connu\)/);
  await context.close();
});

test('in English, and at phone width: the rules choice, the panel and the board', async () => {
  const { page, context, errors } = await open('/moulin', { locale: 'en-GB' });
  const aside = page.locator('aside.rules');
  await aside.getByLabel('Rule set').selectOption({ label: 'Lasker (10 pieces)' });
  await assertRulesSaid(page, 'Rules in force: Lasker (10 pieces).');
  await page.getByText(/Lasker's rule/).waitFor();
  assert.match(await page.locator('[data-player="0"] .detail').textContent(), /Placing or moving \(10 pieces left\)/);
  await playByClicks(page, 'a7 d7');
  assert.match(await status(page).textContent(), /place a piece or move one/);
  await screenshot(page, 'english-lasker-desktop');
  await context.close();
  for (const [label, name] of [['Douze pions (diagonales)', 'twelve'], ['Lasker (10 pions)', 'lasker']]) {
    const phone = await open('/moulin', { viewport: PHONE });
    await ruleSet(phone.page).selectOption({ label });
    await phone.page.locator('aside.rules').getByText('Régler les règles une à une').click();
    await playByClicks(phone.page, 'a7 d7 b6 d6');
    await screenshot(phone.page, `${name}-phone`);
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px: only the board may`);
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  }
  assert.deepEqual(errors, []);
});
