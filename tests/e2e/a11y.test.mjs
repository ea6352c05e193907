// Accessibility end to end, in headless Chromium: the polite live region reads every move aloud
// in words — hot-seat, against the computer (its moves too) and in a remote room between two
// contexts (the opponent's moves, proposals and presence too); the keyboard focus returns to
// the element that opened a dialog (or to the board) when it closes; and an axe-core scan of
// every page and dialog (the spectator's page too), in the light and the dark theme, finds no serious or critical
// violation (every finding is printed, whatever its impact).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relayAndBrowser, DESKTOP, morrisClicks } from './harness.mjs';
import { roomKit } from './rooms.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const ctx = {};
const { player, createRoom, join } = roomKit(ctx, { connect: [], latency: [] });
/** Every axe finding: { where, theme, id, impact, help, nodes }. */
const findings = [];
const scanned = [];

relayAndBrowser(ctx);

after(() => {
  console.log(`# axe: ${scanned.length} scans (${scanned.join(', ')})`);
  for (const f of findings) {
    console.log(`# axe ${f.impact}: ${f.id} on ${f.where} (${f.theme}): ${f.help} — ${f.nodes.join(' | ')}`);
  }
});

/** Records every announcement of the live region, in order, in `window.__said`. */
const RECORD_SPEECH = `
  window.__said = [];
  new MutationObserver(() => {
    const r = document.querySelector('[data-announce]');
    if (r && r.dataset.announce !== window.__serial) {
      window.__serial = r.dataset.announce;
      if (r.textContent) window.__said.push(r.textContent);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
`;

async function open(path) {
  const p = await player(DESKTOP, { init: RECORD_SPEECH, serviceWorkers: 'block' });
  await p.page.goto(`${ctx.relay.url}${path}`);
  await p.page.locator('main').first().waitFor();
  return p;
}

/** How many announcements the page has made so far. */
const mark = (page) => page.evaluate(() => window.__said.length);

/** Waits until the live region has said `words` (a string: exactly; a RegExp: matching), among
 * the announcements from number `from` on. */
async function heard(page, words, { timeout = 15000, from = 0 } = {}) {
  const probe = words instanceof RegExp ? { re: words.source, from } : { s: words, from };
  await page.waitForFunction(({ re, s, from }) => (window.__said || []).slice(from).some((w) => (re ? new RegExp(re).test(w) : w === s)),
    probe, { timeout }).catch(async (e) => {
    throw new Error(`not heard: ${words}; said: ${JSON.stringify(await page.evaluate(() => window.__said))}\n${e}`);
  });
}

/** Scans the page with axe-core in both themes; findings go to the list the last test checks. */
async function scan(page, where) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme, { timeout: 3000 });
    if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE);
    const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
      .violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) })));
    for (const v of violations) findings.push({ where, theme: scheme, ...v });
    scanned.push(`${where}/${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** What has the keyboard focus: its tag, its text or label, and whether it is on the board. */
const focusOf = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return { tag: a?.tagName.toLowerCase(), text: (a?.textContent || '').trim(), board: Boolean(a?.closest('svg.board')) };
});

/** Presses a button by keyboard (focus, then Enter), as a keyboard user does. */
async function pressButton(page, name) {
  const b = page.getByRole('button', { name, exact: true });
  await b.focus();
  await page.keyboard.press('Enter');
}

const morris = (page, tokens) => {
  const points = tokens.split(' ').flatMap(morrisClicks);
  return points.reduce((p, i) => p.then(() => page.locator(`[data-point="${i}"]`).click()), Promise.resolve());
};

test('hot-seat Morris: moves, a mill and its capture, undo and a new game are read aloud; focus returns from the dialog', async () => {
  const { page, context, errors } = await open('/moulin');
  await morris(page, 'a7 b6 d7 d6');
  await heard(page, 'Bleu pose en a7.');
  await heard(page, 'Rouge pose en d6.');
  await page.locator('[data-point="2"]').click(); // g7 closes a7-d7-g7
  await heard(page, 'Bleu forme un moulin et doit capturer un pion rouge.');
  await page.locator('[data-point="8"]').click(); // b6
  await heard(page, 'Bleu pose en g7 et capture b6.');
  await scan(page, 'hot-seat Morris');
  await pressButton(page, 'Annuler le coup');
  await heard(page, 'Dernier tour annulé. Au tour de Bleu.');

  // The new-game dialog by keyboard: its first button has the focus; Escape gives it back.
  await pressButton(page, 'Nouvelle partie');
  assert.deepEqual(await focusOf(page), { tag: 'button', text: 'Commencer', board: false });
  // Tab and Shift+Tab go round the dialog's controls (the rules, the turn limit, « Commencer »,
  // « Reprendre la partie »), never to the page behind it.
  await page.keyboard.press('Tab');
  assert.deepEqual(await focusOf(page), { tag: 'button', text: 'Reprendre la partie', board: false });
  await page.keyboard.press('Tab');
  assert.equal((await focusOf(page)).tag, 'select', 'from the last control to the first (« Règles du jeu »)');
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await focusOf(page), { tag: 'button', text: 'Reprendre la partie', board: false });
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))), `${key}: the focus left the dialog`);
  }
  await scan(page, 'hot-seat Morris, new-game dialog');
  await page.keyboard.press('Escape');
  await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
  assert.deepEqual(await focusOf(page), { tag: 'button', text: 'Nouvelle partie', board: false });
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter'); // « Commencer »
  await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
  await heard(page, 'Nouvelle partie : Bleu commence.');
  assert.deepEqual(await focusOf(page), { tag: 'button', text: 'Nouvelle partie', board: false });
  assert.equal(await page.locator('[data-point][data-piece]').count(), 0);

  // Played from the board by keyboard, the move is read too.
  const n = await mark(page);
  await page.locator('svg.board [tabindex="0"]').focus();
  await page.keyboard.press('Enter');
  await heard(page, /^Bleu pose en [a-g][1-7]\.$/, { from: n });
  assert.deepEqual(errors, []);
  await context.close();
});

test('hot-seat Méta Morpion: the next board or the free choice is read; the dialog gives the focus back', async () => {
  const { page, context, errors } = await open('/meta-morpion');
  await page.locator('[data-cell="40"]').click(); // e5
  await heard(page, 'Bleu (croix) joue en e5 ; prochain coup dans la grille au centre.');
  await page.locator('[data-cell="36"]').click(); // the centre board's top-left cell
  await heard(page, /^Rouge \(rond\) joue en d6 ; prochain coup dans la grille en haut à gauche\.$/);
  await scan(page, 'hot-seat Meta');
  await pressButton(page, 'Nouvelle partie');
  await scan(page, 'hot-seat Meta, new-game dialog');
  await page.getByRole('button', { name: 'Reprendre la partie' }).press('Enter');
  await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
  assert.deepEqual(await focusOf(page), { tag: 'button', text: 'Nouvelle partie', board: false });
  assert.deepEqual(errors, []);
  await context.close();
});

test('against the computer, both games: the computer\'s moves are read aloud too', async () => {
  const m = await open('/moulin/ordinateur');
  // The settings first (level, side, rules, limit), then « Commencer ».
  await scan(m.page, 'computer Morris, settings');
  await pressButton(m.page, 'Commencer');
  await heard(m.page, 'Nouvelle partie : Bleu commence.');
  await m.page.locator('[data-point="9"]').click(); // d6
  await heard(m.page, 'Bleu pose en d6.');
  await heard(m.page, /^Rouge pose en [a-g][1-7]\.$/);
  await m.page.locator('main[data-thinking="false"]').waitFor();
  await scan(m.page, 'computer Morris');
  await pressButton(m.page, 'Annuler le coup');
  await heard(m.page, 'Tours annulés. Au tour de Bleu.');
  await pressButton(m.page, 'Nouvelle partie');
  await scan(m.page, 'computer Morris, new-game dialog');
  await m.page.keyboard.press('Escape');
  assert.deepEqual(await focusOf(m.page), { tag: 'button', text: 'Nouvelle partie', board: false });
  assert.deepEqual(m.errors, []);
  await m.context.close();

  const t = await open('/meta-morpion/ordinateur');
  await pressButton(t.page, 'Commencer');
  await t.page.locator('[data-cell="40"]').click();
  await heard(t.page, 'Bleu (croix) joue en e5 ; prochain coup dans la grille au centre.');
  await heard(t.page, /^Rouge \(rond\) joue en [a-i][1-9] ; prochain coup (dans la grille .+|: choix libre de la grille)\.$/);
  await t.page.locator('main[data-thinking="false"]').waitFor();
  await scan(t.page, 'computer Meta');
  await pressButton(t.page, 'Nouvelle partie');
  await scan(t.page, 'computer Meta, new-game dialog');
  assert.deepEqual(t.errors, []);
  await t.context.close();
});

test('the other pages: home, lobby, viewer, not found', async () => {
  for (const [path, where] of [['/', 'home'], ['/moulin/distance', 'lobby Morris'], ['/meta-morpion/distance', 'lobby Meta'],
    ['/partie', 'viewer'], ['/nulle-part', 'not found']]) {
    const { page, context, errors } = await open(path);
    await scan(page, where);
    assert.deepEqual(errors, [], where);
    await context.close();
  }
});

test('paired by hand: the host\'s offer with a refused text, the guest\'s answer, scanned', async () => {
  const h = await open('/moulin/distance');
  await h.page.locator('[data-serverless]').click();
  const offer = await h.page.locator('[data-offer]').inputValue();
  // A refused text: said in an alert, the box marked invalid.
  const box = h.page.locator('[data-answer-input]');
  await box.fill('bonjour');
  await box.evaluate((el) => el.form.requestSubmit());
  await h.page.locator('[data-pairing-error][role="alert"]').waitFor();
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  assert.equal(await h.page.getByRole('textbox', { name: 'Réponse de l\'invité' }).count(), 1);
  await scan(h.page, 'paired room host');
  const g = await player(DESKTOP, { init: RECORD_SPEECH, serviceWorkers: 'block' });
  await g.page.goto(offer);
  await g.page.locator('[data-answer]').waitFor({ timeout: 20000 });
  assert.equal(await g.page.getByRole('textbox', { name: 'Offre de l\'hôte' }).count(), 1);
  await scan(g.page, 'paired room guest');
  for (const p of [h, g]) {
    assert.deepEqual(p.errors.filter((e) => !/ice-servers/.test(e)), []);
    await p.context.close();
  }
});

test('remote: the opponent\'s moves, proposals and presence are read aloud; dialogs give the focus back; room and viewer scanned', async () => {
  const h = await player(DESKTOP, { init: RECORD_SPEECH });
  const g = await player(DESKTOP, { init: RECORD_SPEECH });
  const { link } = await createRoom(h.page, 'morris');
  await h.page.locator('[data-presence="waiting"]').waitFor();
  await scan(h.page, 'room waiting');
  await join(g.page, h.page, link);
  await heard(h.page, 'Votre adversaire est arrivé.');

  await h.page.locator('[data-point="9"]').click(); // d6
  await heard(g.page, 'Bleu pose en d6.');
  await g.page.locator('main[data-my-turn="true"]').waitFor();
  await g.page.locator('[data-point="0"]').click(); // a7
  await heard(h.page, 'Rouge pose en a7.');
  await scan(h.page, 'room in game');

  // A spectator: its page is scanned, and the live region tells it the game too.
  const s = await player(DESKTOP, { init: RECORD_SPEECH });
  await s.page.goto(await h.page.locator('[data-spectator-link]').inputValue());
  await s.page.locator('[data-verified="true"]').waitFor({ timeout: 20000 });
  await heard(s.page, 'Rouge pose en a7.');
  await h.page.locator('[data-spectators="1"]').waitFor();
  await scan(s.page, 'spectator');
  await scan(h.page, 'room with a spectator');

  // The host asks to undo; the guest hears the request, its dialog has the focus.
  await h.page.locator('main[data-my-turn="true"]').waitFor();
  await pressButton(h.page, 'Annuler le coup');
  await heard(g.page, 'Votre adversaire demande à annuler le dernier tour.');
  await g.page.locator('[data-proposal="theirs"]').waitFor();
  assert.deepEqual(await focusOf(g.page), { tag: 'button', text: 'Accepter', board: false });
  // Shift+Tab and Tab go round its two buttons.
  await g.page.keyboard.press('Shift+Tab');
  assert.deepEqual(await focusOf(g.page), { tag: 'button', text: 'Refuser', board: false });
  await g.page.keyboard.press('Tab');
  assert.deepEqual(await focusOf(g.page), { tag: 'button', text: 'Accepter', board: false });
  await scan(g.page, 'room, proposal dialog');
  await g.page.keyboard.press('Enter'); // « Accepter »
  await g.page.locator('[data-proposal="theirs"]').waitFor({ state: 'detached' });
  await heard(g.page, 'Dernier tour annulé. Au tour de Rouge.');
  await heard(h.page, 'Dernier tour annulé. Au tour de Rouge.');
  // The dialog came unasked: the focus lands on the board, never on the page's body.
  assert.equal((await focusOf(g.page)).board, true);

  // This tab's own dialog (leave): Escape gives the focus back to its button.
  await pressButton(h.page, 'Quitter le salon');
  await h.page.locator('[role="dialog"]').waitFor();
  await scan(h.page, 'room, leave dialog');
  await h.page.keyboard.press('Escape');
  await h.page.locator('[role="dialog"]').waitFor({ state: 'detached' });
  assert.deepEqual(await focusOf(h.page), { tag: 'button', text: 'Quitter le salon', board: false });

  // The transcript so far, verified in the viewer.
  await h.page.getByRole('button', { name: 'Exporter la partie' }).click();
  const href = await h.page.locator('[data-export="transcript"]').getAttribute('href');
  const transcript = decodeURIComponent(href.slice(href.indexOf(',') + 1));

  // The guest's browser goes: the host hears it; a new device knocks for the seat.
  await g.context.close();
  await heard(h.page, /^Votre adversaire s'est déconnecté : sa place est gardée \d:\d\d\.$/, { timeout: 20000 });
  const g2 = await player(DESKTOP, { init: RECORD_SPEECH });
  await g2.page.goto(link);
  await heard(h.page, "Un nouvel appareil demande la place de Rouge. L'accepter ?", { timeout: 20000 });
  await h.page.locator('[data-knock]').waitFor();
  await scan(h.page, 'room, knock dialog');
  await scan(g2.page, 'room, knocking device');
  await h.page.keyboard.press('Tab'); // « Refuser »
  await h.page.keyboard.press('Enter');
  await h.page.locator('[data-knock]').waitFor({ state: 'detached' });
  const after = await focusOf(h.page);
  assert.ok(after.board || after.tag === 'button', JSON.stringify(after));
  await g2.context.close();

  const v = await open('/partie');
  await v.page.locator('[data-file]').setInputFiles({ name: 'salon.transcript', mimeType: 'text/plain', buffer: Buffer.from(transcript) });
  await v.page.locator('[data-verified="true"]').waitFor();
  await scan(v.page, 'viewer, verified transcript');
  await heard(s.page, 'Dernier tour annulé. Au tour de Rouge.');
  assert.deepEqual([...h.errors, ...v.errors, ...s.errors], []);
  await s.context.close();
  await h.context.close();
  await v.context.close();
});

test('axe-core: no serious or critical violation on any page or dialog, in either theme', () => {
  assert.ok(scanned.length >= 30, `only ${scanned.length} scans ran`);
  const bad = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  assert.deepEqual(bad.map((f) => `${f.id} on ${f.where} (${f.theme}): ${f.nodes.join(' | ')}`), []);
});
