// The local pages' comforts (issue #22), end to end in headless Chromium, in French and English,
// at desktop sizes (1280×800, 1366×768) and on a phone with touch (portrait and landscape):
// hot-seat and computer games of both games kept by the browser and taken back after a reload
// (« Partie reprise », the settings, the undo history, the computer playing on), « Nouvelle
// partie » starting afresh, a corrupted or old stored value ignored; the computer's settings
// asked before play, the computer waiting for « Commencer »; status, board and buttons inside
// the viewport together; a refused turn limit blocking play.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  relayAndBrowser, PHONE, screenshot, engineReplay, engineAi, morrisClicks, cell, boardString,
  COUNT_PAGE, timersDone,
} from './harness.mjs';

const ctx = {};
relayAndBrowser(ctx);

const DESKTOPS = [{ width: 1280, height: 800 }, { width: 1366, height: 768 }];
const LANDSCAPE = { ...PHONE, width: PHONE.height, height: PHONE.width };
const WORDS = {
  fr: {
    resumed: 'Partie reprise là où vous l\'aviez laissée.', start: 'Commencer', newGame: 'Nouvelle partie',
    undo: 'Annuler le coup', red: 'Rouge', beginner: 'Débutant', strong: 'Fort', limit: 'Limite de tours (1 à 500)',
    thinking: 'L\'ordinateur réfléchit…', refused: 'Un réglage est refusé : corrigez-le avant de jouer.',
    setup: 'Choisissez le niveau de l\'ordinateur et votre camp, puis « Commencer ».',
    waits: 'Le plateau attend « Commencer ».',
    coords: 'Coordonnées sur le plateau', readOnly: 'Vous regardez une position passée : « Retour à la partie » pour jouer.',
    back: 'Retour à la partie', after2: 'Position après le tour 2 (Rouge : b6) : lecture seule.',
    played: 'Tours joués : 4 sur 100', blueAt2: 'Phase de pose (8 jetons restants)',
  },
  en: {
    resumed: 'Game resumed where you left it.', start: 'Start', newGame: 'New game', undo: 'Undo', red: 'Red',
    beginner: 'Beginner', strong: 'Strong', limit: 'Turn limit (1 to 500)', thinking: 'The computer is thinking…',
    refused: 'A setting was refused: correct it before playing.',
    setup: 'Choose the computer\'s level and your side, then “Start”.',
    waits: 'The board waits for “Start”.',
    coords: 'Coordinates on the board', readOnly: 'You are looking at a past position: “Back to the game” to play.',
    back: 'Back to the game', after2: 'Position after turn 2 (Red: b6): read-only.',
    played: 'Turns played: 4 of 100', blueAt2: 'Placing (8 pieces left)',
  },
};

/** A fresh page (own context, own storage) in `lang`, recording page errors; with `count`, its
 * timers and workers counted (harness.mjs, `COUNT_PAGE`). */
async function open(pathname, { viewport = DESKTOPS[0], lang = 'fr', count = false } = {}) {
  const context = await ctx.browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    locale: lang === 'fr' ? 'fr-FR' : 'en-GB',
    ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}),
  });
  if (count) await context.addInitScript(COUNT_PAGE);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(ctx.relay.url + pathname);
  await page.locator('main svg.board').waitFor();
  return { page, context, errors, w: WORDS[lang] };
}

/** The page's hooks. */
const state = (page) => page.evaluate(() => {
  const d = document.querySelector('main').dataset;
  const s = document.querySelector('[data-status]');
  return {
    turns: Number(d.turns), record: d.record, thinking: d.thinking === 'true',
    human: d.human === undefined ? null : Number(d.human), status: s.dataset.status, text: s.textContent,
  };
});

/** Waits for the player's turn (or the end) after at least `turns` turns. */
const playerToMove = (page, turns) => page.waitForFunction((turns) => {
  const d = document.querySelector('main').dataset;
  if (document.querySelector('[data-status]').dataset.status !== 'playing') return true;
  return d.thinking === 'false' && Number(d.turns) >= turns && Number(d.turns) % 2 === Number(d.human);
}, turns, { timeout: 30000 });

async function playMorris(page, record) {
  for (const token of record.split(' ').filter(Boolean)) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
}
async function playMeta(page, record) {
  for (const name of record.split(' ').filter(Boolean)) await page.locator(`[data-cell="${cell(name)}"]`).click();
}
const morrisBoard = (page) => boardString(page, 'data-point', 24, 'BR');
const metaBoard = (page) => boardString(page, 'data-cell', 81, 'XO');

/** The bounding boxes of the status line, the board and the visible buttons under or beside it,
 * and whether each lies inside the viewport. */
async function inView(page) {
  return page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
    const inside = (b) => b.top >= -0.5 && b.left >= -0.5 && b.bottom <= innerHeight + 0.5 && b.right <= innerWidth + 0.5;
    const items = [['status', document.querySelector('[data-status]')], ['board', document.querySelector('main svg.board')],
      ...[...document.querySelectorAll('.play-bottom .actions button, [data-setup] button[type=submit]')]
        .map((b) => [b.textContent.trim(), b])];
    return items.map(([name, e]) => ({ name, ...box(e), inside: inside(box(e)) }));
  });
}

/** Asserts that status, board and buttons are in view together: at once on a desktop or a phone
 * held upright, after scrolling to the game once on a phone held sideways. On a phone, while
 * the computer's settings are chosen above the board, the board may wait below them. */
async function assertInView(page, where) {
  const sideways = page.viewportSize().width > page.viewportSize().height && page.viewportSize().height < 560;
  const setup = await page.locator('[data-setup]').count() > 0;
  if (sideways) await page.evaluate(() => document.querySelector('.layout').scrollIntoView());
  if (sideways && setup) {
    // Sideways, the settings fill the screen's height: what counts is « Commencer », reached
    // by scrolling down, with nothing sideways.
    await page.locator('[data-setup] button[type=submit]').scrollIntoViewIfNeeded();
  }
  const upright = page.viewportSize().width < 560;
  const boxes = (await inView(page)).filter((b) => !(setup && (upright || sideways) && b.name === 'board')
    && !(setup && sideways && b.name === 'status'));
  for (const b of boxes) assert.ok(b.inside, `${where}: « ${b.name} » outside the viewport ${JSON.stringify(b)} ${JSON.stringify(page.viewportSize())}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `${where}: the page scrolls sideways by ${overflow}px`);
  return boxes;
}

test('a hot-seat game of each game survives a reload: position, history, settings, « Partie reprise »; « Nouvelle partie » starts afresh', async () => {
  for (const [lang, viewport] of [['fr', DESKTOPS[0]], ['en', PHONE]]) {
    // Morris under Lasker, limit 60, a capture pending (g7 closes a7-d7-g7).
    const { page, context, errors, w } = await open('/moulin', { viewport, lang });
    await page.locator('aside.rules select').first().selectOption('lasker');
    await page.getByLabel(w.limit).fill('60');
    await playMorris(page, 'a7 b6 d7 d6');
    await page.locator('[data-point="2"]').click();
    const before = { board: await morrisBoard(page), ...(await state(page)) };
    await page.reload();
    await page.locator('[data-resumed]').waitFor();
    assert.equal(await page.locator('[data-resumed]').textContent(), w.resumed);
    assert.deepEqual({ board: await morrisBoard(page), ...(await state(page)) }, before, 'the capture is still pending');
    assert.equal(await page.getByLabel(w.limit).inputValue(), '60');
    assert.ok(await page.getByLabel(w.limit).isDisabled());
    assert.equal(await page.locator('.rules-name').getAttribute('data-rules'), 'pieces=10,diagonals=0,flying=1,lasker=1,quiet=0');
    assert.equal(await page.locator('[data-ply]').count(), 5, 'the history: the start and four turns');
    if (lang === 'fr') await screenshot(page, 'resumed-morris-desktop');
    // The capture, then undo back through the turns before the reload.
    await page.locator('[data-point="8"]').click();
    assert.equal(await page.locator('[data-resumed]').count(), 0, 'said until the player acts');
    assert.equal((await state(page)).record, 'a7 b6 d7 d6 g7xb6');
    for (let i = 0; i < 5; i++) await page.getByRole('button', { name: w.undo, exact: true }).click();
    assert.equal((await state(page)).turns, 0);
    await playMorris(page, 'd6');
    await page.reload();
    await page.locator('[data-resumed]').waitFor();
    assert.equal((await state(page)).record, 'd6');
    // « Nouvelle partie » starts afresh, with the settings; a reload then finds a fresh game.
    await page.getByRole('button', { name: w.newGame }).click();
    await page.getByRole('dialog').getByRole('button', { name: w.start }).click();
    await page.reload();
    await page.locator('main svg.board').waitFor();
    assert.equal(await page.locator('[data-resumed]').count(), 0);
    assert.equal((await state(page)).turns, 0);
    assert.equal(await page.getByLabel(w.limit).inputValue(), '60', 'the settings are kept');
    assert.ok(!(await page.getByLabel(w.limit).isDisabled()));
    assert.deepEqual(errors, []);
    await context.close();

    // Méta Morpion.
    const meta = await open('/meta-morpion', { viewport, lang });
    await playMeta(meta.page, 'e5 e4 d2');
    const board = await metaBoard(meta.page);
    await meta.page.reload();
    await meta.page.locator('[data-resumed]').waitFor();
    assert.equal(await metaBoard(meta.page), board);
    assert.equal((await state(meta.page)).record, 'e5 e4 d2');
    assert.equal(await meta.page.locator(`[data-cell="${cell('d2')}"] .last-frame`).count(), 1, 'the last move framed');
    if (lang === 'en') await screenshot(meta.page, 'resumed-meta-phone');
    await meta.page.getByRole('button', { name: w.undo, exact: true }).click();
    assert.equal((await state(meta.page)).record, 'e5 e4');
    assert.deepEqual(meta.errors, []);
    await meta.context.close();
  }
});

test('a game against the computer survives a reload with its settings, and the computer plays on', async () => {
  for (const [lang, viewport] of [['en', DESKTOPS[1]], ['fr', PHONE]]) {
    const { page, context, errors, w } = await open('/moulin/ordinateur', { viewport, lang });
    const setup = page.locator('[data-setup]');
    await setup.getByLabel(w.limit).fill('40');
    await setup.getByRole('radio', { name: w.beginner }).check();
    await setup.getByRole('radio', { name: w.red, exact: true }).check();
    await setup.getByRole('button', { name: w.start }).click();
    await playerToMove(page, 1);
    let st = await state(page);
    await playMorris(page, engineAi('morris', st.record, { maxTurns: 40 }));
    await playerToMove(page, 3);
    st = await state(page);
    const cards = await page.locator('.players').innerText();
    await page.reload();
    await page.locator('[data-resumed]').waitFor();
    assert.equal(await setup.count(), 0, 'under way: no settings to choose');
    const back = await state(page);
    assert.deepEqual([back.record, back.human, back.thinking], [st.record, 1, false]);
    assert.equal(await page.locator('.players').innerText(), cards, 'Blue · computer (Beginner), Red · you');
    assert.match(await page.locator('.progress').textContent(), /40/);
    // The game goes on.
    await playMorris(page, engineAi('morris', back.record, { maxTurns: 40 }));
    await playerToMove(page, 5);
    const now = await state(page);
    assert.doesNotThrow(() => engineReplay('morris', now.record, 40));
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Reloaded while « Fort » thinks: after the reload it is asked again, and answers.
  const { page, context, errors, w } = await open('/meta-morpion/ordinateur', { viewport: PHONE, lang: 'en' });
  await page.locator('[data-setup]').getByRole('radio', { name: w.strong }).check();
  await page.locator('[data-setup]').getByRole('button', { name: w.start }).click();
  await page.locator(`[data-cell="${cell('e5')}"]`).click();
  await page.locator('main[data-thinking="true"]').waitFor();
  await page.reload();
  await page.locator('[data-resumed]').waitFor();
  assert.equal((await state(page)).record, 'e5');
  await playerToMove(page, 2);
  const st = await state(page);
  assert.equal(st.turns, 2);
  assert.doesNotThrow(() => engineReplay('meta', st.record));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a corrupted or old stored game is ignored: the page starts afresh, and keeps the next game', async () => {
  const bad = {
    'moulin-hot-seat-v1': '[Game "morris"]\na7 a7 zz\n',
    'meta-morpion-hot-seat-v1': '{"record":"e5 e4"}',
    'moulin-computer-v1': '[Game "morris"]\n[Level "9"]\n[Side "blue"]\n[Human "0"]\nd6\n',
    'meta-morpion-computer-v1': '[Game "morris"]\n[Level "1"]\n[Side "red"]\n[Human "1"]\n',
  };
  for (const [key, pathname, lang] of [['moulin-hot-seat-v1', '/moulin', 'fr'], ['meta-morpion-hot-seat-v1', '/meta-morpion', 'en'],
    ['moulin-computer-v1', '/moulin/ordinateur', 'en'], ['meta-morpion-computer-v1', '/meta-morpion/ordinateur', 'fr']]) {
    const { page, context, errors } = await open(pathname, { lang });
    await page.evaluate((values) => { for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v); }, bad);
    await page.reload();
    await page.locator('main svg.board').waitFor();
    assert.equal(await page.locator('[data-resumed]').count(), 0, pathname);
    assert.equal((await state(page)).turns, 0, pathname);
    assert.equal(await page.locator('[data-setup]').count(), pathname.endsWith('ordinateur') ? 1 : 0);
    assert.deepEqual(errors, [], pathname);
    // The page plays, and what it keeps next is read back.
    if (pathname.endsWith('ordinateur')) await page.locator('[data-setup] button[type=submit]').click();
    if (pathname.startsWith('/moulin')) await playMorris(page, 'd6');
    else await playMeta(page, 'e5');
    assert.notEqual(await page.evaluate((k) => localStorage.getItem(k), key), bad[key]);
    await page.reload();
    await page.locator('[data-resumed]').waitFor();
    assert.equal((await state(page)).record.split(' ')[0], pathname.startsWith('/moulin') ? 'd6' : 'e5');
    await context.close();
  }
});

test('against the computer the settings come first: choosing Red moves nothing until « Commencer »', async () => {
  for (const [lang, viewport, game] of [['fr', DESKTOPS[0], 'moulin'], ['en', PHONE, 'meta-morpion']]) {
    const { page, context, errors, w } = await open(`/${game}/ordinateur`, { viewport, lang, count: true });
    const workers = [];
    context.on('request', (r) => { if (!r.serviceWorker() && r.url().includes('/worker-')) workers.push(r.url()); });
    const setup = page.locator('[data-setup]');
    await setup.getByRole('radio', { name: w.red, exact: true }).check();
    assert.equal(await page.locator('[data-status]').textContent(), w.setup);
    // Above the board on a phone, beside it on a desktop: before the rules in either case.
    const [s, b, rules] = await Promise.all([setup, page.locator('main svg.board'), page.locator('aside.rules')]
      .map((l) => l.boundingBox()));
    if (viewport.isMobile) assert.ok(s.y + s.height <= b.y, 'the settings above the board');
    else assert.ok(s.x >= b.x + b.width && s.y < b.y + b.height, 'the settings beside the board');
    assert.ok(s.y + s.height <= rules.y, 'before the rules');
    await assertInView(page, `${game} settings (${lang})`);
    // Whatever the page had put off (a computer's move would be) has happened by now.
    await timersDone(page);
    let st = await state(page);
    assert.deepEqual([st.turns, st.thinking], [0, false], 'the computer waits');
    assert.equal(await page.evaluate(() => window.__e2eWorkers), 0, 'no worker created yet');
    assert.equal(workers.length, 0, 'no worker loaded yet');
    // The board says why it waits; the level still changes.
    await page.locator(game === 'moulin' ? '[data-point="9"]' : `[data-cell="${cell('e5')}"]`).click();
    assert.equal(await page.locator('.status-area .notice').textContent(), w.waits);
    await setup.getByRole('radio', { name: w.strong }).check();
    await screenshot(page, `computer-${game}-settings-${viewport.isMobile ? 'phone' : 'desktop'}`);
    await setup.getByRole('button', { name: w.start }).click();
    await setup.waitFor({ state: 'detached' });
    await page.locator('main[data-thinking="true"]').waitFor();
    assert.equal(await page.locator('[data-status]').textContent(), w.thinking);
    await assertInView(page, `${game} thinking (${lang})`);
    await playerToMove(page, 1);
    st = await state(page);
    assert.deepEqual([st.turns, st.human], [1, 1]);
    assert.match(await page.locator('[data-player="0"]').textContent(), new RegExp(w.strong));
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('status, board and buttons in view together: 1280×800, 1366×768, a phone upright and sideways', async () => {
  for (const viewport of [...DESKTOPS, PHONE, LANDSCAPE]) {
    for (const [pathname, lang] of [['/moulin', 'fr'], ['/meta-morpion', 'en'], ['/moulin/ordinateur', 'en']]) {
      const where = `${pathname} ${viewport.width}×${viewport.height} (${lang})`;
      const { page, context, errors, w } = await open(pathname, { viewport, lang });
      if (pathname.endsWith('ordinateur')) {
        await assertInView(page, `${where}, settings`);
        await page.locator('[data-setup]').getByRole('button', { name: w.start }).click();
      }
      if (pathname.startsWith('/moulin')) await playMorris(page, 'd6');
      else await playMeta(page, 'e5 e4 d2');
      const board = (await assertInView(page, where)).find((b) => b.name === 'board');
      assert.ok(board.right - board.left >= 280, `${where}: a board of ${board.right - board.left}px`);
      if (!viewport.isMobile) assert.ok(board.right - board.left >= 560, `${where}: the board keeps its size (${board.right - board.left}px)`);
      if (pathname === '/moulin' && viewport === LANDSCAPE) await screenshot(page, 'morris-landscape-phone');
      if (pathname === '/meta-morpion' && viewport === DESKTOPS[1]) await screenshot(page, 'meta-1366x768-desktop');
      assert.deepEqual(errors, [], where);
      await context.close();
    }
  }
});

test('a refused turn limit stays an error and blocks play; the game never runs under another limit', async () => {
  for (const lang of ['fr', 'en']) {
    const { page, context, w } = await open('/moulin', { lang, viewport: lang === 'fr' ? DESKTOPS[0] : PHONE });
    const limit = page.getByLabel(w.limit);
    await limit.fill('0');
    assert.equal(await limit.getAttribute('aria-invalid'), 'true');
    await page.locator('[data-point="9"]').click();
    assert.equal(await page.locator('.status-area .notice').textContent(), w.refused);
    assert.equal(await page.locator('[data-point="9"]').getAttribute('data-piece'), null, 'nothing played');
    assert.equal(await limit.inputValue(), '0', 'the field shows what was typed, as an error');
    await limit.fill('30');
    await page.locator('[data-point="9"]').click();
    assert.equal(await page.locator('[data-point="9"]').getAttribute('data-piece'), '0');
    assert.match(await page.locator('.progress').textContent(), /30/);
    assert.ok(await limit.isDisabled());
    assert.equal(await limit.inputValue(), '30');
    await context.close();
    // Against the computer, « Commencer » with a refused limit starts nothing.
    const c = await open('/moulin/ordinateur', { lang });
    await c.page.getByLabel(w.limit).fill('501');
    await c.page.locator('[data-setup]').getByRole('button', { name: w.start }).click();
    assert.equal(await c.page.locator('.status-area .notice').textContent(), w.refused);
    assert.equal(await c.page.locator('[data-setup]').count(), 1);
    await c.page.getByLabel(w.limit).fill('50');
    await c.page.locator('[data-setup]').getByRole('button', { name: w.start }).click();
    await c.page.locator('[data-setup]').waitFor({ state: 'detached' });
    assert.match(await c.page.locator('.progress').textContent(), /50/);
    await c.context.close();
  }
});

/** The coordinates drawn on the board: each label's text and centre, and the centres of the
 * points or cells named by `names`. */
const coordinates = (page, hook, indices) => page.evaluate(([hook, indices]) => {
  const centre = (e) => { const r = e.getBoundingClientRect(); return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 }; };
  const labels = [...document.querySelectorAll('main svg.board [data-coords] text')].map((t) => ({ text: t.textContent, ...centre(t) }));
  const at = Object.fromEntries(Object.entries(indices).map(([name, i]) => [name, centre(document.querySelector(`[${hook}="${i}"] .hit`))]));
  return { labels, at };
}, [hook, indices]);

test('coordinates a–g/1–7 and a–i/1–9 along the boards, beside the right rows and columns; the setting hides them, and is kept', async () => {
  for (const [lang, viewport] of [['fr', DESKTOPS[0]], ['en', PHONE]]) {
    for (const [pathname, hook, files, ranks, corner, index] of [
      ['/moulin', 'data-point', 'abcdefg', '1234567', ['a1', 'g7'], (n) => morrisClicks(n)[0]],
      ['/meta-morpion', 'data-cell', 'abcdefghi', '123456789', ['a1', 'i9'], cell],
    ]) {
      const where = `${pathname} ${lang}`;
      const { page, context, errors, w } = await open(pathname, { viewport, lang });
      const { labels, at } = await coordinates(page, hook, Object.fromEntries(corner.map((n) => [n, index(n)])));
      const letters = labels.filter((l) => /[a-i]/.test(l.text));
      const numbers = labels.filter((l) => /[0-9]/.test(l.text));
      assert.deepEqual(letters.map((l) => l.text).sort().join(''), files, where);
      assert.deepEqual(numbers.map((l) => l.text).sort().join(''), ranks, where);
      // « a » under a1, « 1 » left of it; the last letter under the last file, the highest
      // number left of the top row.
      const [low, high] = corner.map((n) => at[n]);
      const label = (t) => labels.find((l) => l.text === t);
      const near = (a, b) => Math.abs(a - b) <= 2;
      assert.ok(near(label('a').x, low.x) && label('a').y > low.y, `${where}: « a » under a1`);
      assert.ok(near(label('1').y, low.y) && label('1').x < low.x, `${where}: « 1 » left of a1`);
      assert.ok(near(label(files.at(-1)).x, high.x), `${where}: the last file`);
      assert.ok(near(label(ranks.at(-1)).y, high.y) && label(ranks.at(-1)).x < high.x, `${where}: the top rank`);
      // Hidden by the setting, for every page of the site, and still hidden after a reload.
      const setting = page.getByLabel(w.coords);
      assert.ok(await setting.isChecked());
      await setting.uncheck();
      assert.equal(await page.locator('main svg.board [data-coords]').count(), 0, where);
      await page.reload();
      await page.locator('main svg.board').waitFor();
      assert.equal(await page.locator('main svg.board [data-coords]').count(), 0, `${where}, reloaded`);
      assert.equal(await page.getByLabel(w.coords).isChecked(), false);
      await page.getByLabel(w.coords).check();
      assert.equal(await page.locator('main svg.board [data-coords] text').count(), 2 * files.length, where);
      await page.evaluate(() => scrollTo(0, 0));
      if (lang === 'fr' && pathname === '/moulin') await screenshot(page, 'morris-coordinates-desktop');
      if (lang === 'en' && pathname === '/meta-morpion') await screenshot(page, 'meta-coordinates-phone');
      assert.deepEqual(errors, [], where);
      await context.close();
    }
  }
});

test('the history agrees with itself: one numbering, the cards of the position shown, no stale error, no jump', async () => {
  for (const [lang, viewport] of [['fr', DESKTOPS[1]], ['en', PHONE]]) {
    const { page, context, errors, w } = await open('/moulin', { viewport, lang });
    await playMorris(page, 'a7 b6 d7 d6');
    // Each turn numbered as the turn counter and the banner number it.
    assert.deepEqual(await page.locator('.history .turns .num').allTextContents(), ['1.', '2.', '3.', '4.']);
    assert.deepEqual(await page.locator('[data-ply]:not([data-ply="0"])').allTextContents(), ['a7', 'b6', 'd7', 'd6']);
    assert.equal((await page.locator('.progress').textContent()).trim(), w.played);
    // Where the board is in the page (clicking the list may scroll the page to it).
    const top = () => page.evaluate(() => document.querySelector('main svg.board').getBoundingClientRect().top + scrollY);
    const live = await top();
    await page.locator('[data-ply="2"]').click();
    await page.locator('[data-browsing="2"]').waitFor();
    assert.match(await page.locator('[data-browsing]').textContent(), new RegExp(w.after2.replace(/[()]/g, '\\$&')));
    // The cards describe the position shown: Blue had placed one piece, Blue to move.
    assert.match(await page.locator('[data-player="0"]').textContent(), new RegExp(w.blueAt2.replace(/[()]/g, '\\$&')));
    assert.equal(await top(), live, 'the board does not jump');
    // A click on the past position is refused; going back to the game drops the refusal.
    await page.locator('[data-point="0"]').click();
    assert.equal(await page.locator('.status-area .notice').textContent(), w.readOnly);
    await page.getByRole('button', { name: w.back }).click();
    await page.locator('[data-browsing]').waitFor({ state: 'detached' });
    assert.equal(await page.locator('.status-area .notice').count(), 0, 'no stale error');
    assert.equal(await top(), live, 'the board does not jump back');
    assert.deepEqual(errors, []);
    await context.close();
  }
});
