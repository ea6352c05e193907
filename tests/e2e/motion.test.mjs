// Moves one can follow (issue 22, item 6), in headless Chromium, in French and English, at a
// desktop and a phone (touch) viewport: a Morris piece dragged and dropped (mouse and touch)
// plays the move, and a drop on an illegal point plays nothing; the computer's move and the
// remote opponent's animate (a `data-motion` on the board, a class on the point) — not under
// `prefers-reduced-motion: reduce`; the three points of a new mill are marked; only points and
// cells where a click plays look clickable; the sound switch is off by default and remembered
// across a reload. Screenshots of a mill and of a drag under way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  relayAndBrowser, DESKTOP, PHONE, screenshot, point, morrisClicks, cell,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const ctx = {};
relayAndBrowser(ctx);
const { player, createRoom, join } = roomKit(ctx, { connect: [], latency: [] });

const LANGS = { fr: 'fr-FR', en: 'en-GB' };
const TEXT = {
  fr: { sound: 'Son', on: 'Activé', off: 'Coupé' },
  en: { sound: 'Sound', on: 'On', off: 'Off' },
};

/** A page of its own context, in `lang`, at `viewport`; `reduce`: prefers-reduced-motion. */
async function open(route, { lang = 'fr', viewport = DESKTOP, reduce = false } = {}) {
  const context = await ctx.browser.newContext({
    viewport, locale: LANGS[lang], serviceWorkers: 'block',
    ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}),
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  if (reduce) await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(ctx.relay.url + route);
  await page.locator('svg.board').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
  return { page, context, errors };
}

const pt = (i) => `[data-point="${i}"]`;

/** A computer page asks its settings first: the defaults, then « Commencer » / « Start ». */
async function start(page, lang) {
  await page.locator('[data-setup]').getByRole('button', { name: lang === 'fr' ? 'Commencer' : 'Start' }).click();
}

/** Plays Morris tokens by clicks (placements, moves, captures). */
async function clicks(page, record) {
  for (const token of record.split(' ')) {
    for (const p of morrisClicks(token)) await page.locator(pt(p)).click();
  }
}

/** The centre of a point on screen, in CSS px of the viewport. */
async function centre(page, i) {
  await page.locator(pt(i)).scrollIntoViewIfNeeded();
  const b = await page.locator(`${pt(i)} .hit`).boundingBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Drags the piece on point `from` to point `to` with the mouse, or a finger on a touch screen;
 * `during` runs while the piece is held over `to`. */
async function drag(page, context, from, to, touch, during = async () => {}) {
  const a = await centre(page, from);
  const b = await centre(page, to);
  const steps = 8;
  if (!touch) {
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    for (let s = 1; s <= steps; s++) await page.mouse.move(a.x + (b.x - a.x) * s / steps, a.y + (b.y - a.y) * s / steps);
    await during();
    await page.mouse.up();
    return;
  }
  const cdp = await context.newCDPSession(page);
  const touchAt = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
  await touchAt('touchStart', a.x, a.y);
  for (let s = 1; s <= steps; s++) await touchAt('touchMove', a.x + (b.x - a.x) * s / steps, a.y + (b.y - a.y) * s / steps);
  await during();
  await touchAt('touchEnd');
  await cdp.detach();
}

/** Resolves once every animation on the page has ended (for a still screenshot). */
const still = (page) => page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));

const pieceAt = (page, i) => page.locator(pt(i)).getAttribute('data-piece');
const classesOf = (page, sel) => page.locator(sel).evaluate((e) => [...e.classList]);

// Eighteen placements without a mill: Blue to move, sliding.
const PLACED = 'a7 d7 g7 a4 g4 g1 a1 d1 b6 d6 f6 b4 f4 f2 b2 d2 c5 e5';

for (const [lang, viewport, name] of [['fr', DESKTOP, 'desktop'], ['en', PHONE, 'phone'], ['en', DESKTOP, 'desktop'], ['fr', PHONE, 'phone']]) {
  const touch = !!viewport.hasTouch;
  test(`hot-seat Morris (${lang}, ${name}): drag and drop ${touch ? 'by touch' : 'with the mouse'}, clickable only where legal, the mill marked`, async () => {
    const { page, context, errors } = await open('/moulin', { lang, viewport });
    // Placing: every empty point is legal, no piece is.
    await clicks(page, 'a7 b6 d7 d6');
    assert.ok((await classesOf(page, pt(point('g7')))).includes('legal'));
    assert.ok(!(await classesOf(page, pt(point('a7')))).includes('legal'), 'an occupied point while placing');
    assert.equal(await page.locator(pt(point('a7'))).evaluate((e) => getComputedStyle(e).cursor), 'default');
    assert.equal(await page.locator(pt(point('g7'))).evaluate((e) => getComputedStyle(e).cursor), 'pointer');
    // A mill: its three points marked, and a line over them; nothing else.
    await page.locator(pt(point('g7'))).click();
    const mill = ['a7', 'd7', 'g7'].map(point).sort((x, y) => x - y);
    const marked = await page.locator('.point.mill').evaluateAll((es) => es.map((e) => Number(e.dataset.point)).sort((x, y) => x - y));
    assert.deepEqual(marked, mill);
    assert.equal(await page.locator('.mill-line').count(), 1);
    // Capturing: only Red's pieces are legal.
    assert.ok((await classesOf(page, pt(point('b6')))).includes('legal'));
    assert.ok(!(await classesOf(page, pt(point('a7')))).includes('legal'));
    assert.ok(!(await classesOf(page, pt(point('c5')))).includes('legal'), 'an empty point while capturing');
    if (lang === 'fr' && !touch) { await still(page); await screenshot(page, 'motion-morris-mill-desktop'); }
    await page.locator(pt(point('b6'))).click();
    assert.equal(await page.locator('.point.mill').count(), 3, 'the mill stays marked until the next turn');
    await page.locator(pt(point('b4'))).click();
    assert.equal(await page.locator('.point.mill').count(), 0);

    // A fresh game to the moving stage (a reload alone brings the kept game back).
    await page.evaluate(() => localStorage.removeItem('moulin-hot-seat-v1'));
    await page.reload();
    await page.locator('svg.board').waitFor();
    await clicks(page, PLACED);
    const [c5, c4, d5, d7] = ['c5', 'c4', 'd5', 'd7'].map(point);
    assert.ok((await classesOf(page, pt(c5))).includes('legal'), 'a piece that can move');
    assert.ok(!(await classesOf(page, pt(d7))).includes('legal'), "the opponent's piece");
    assert.ok(!(await classesOf(page, pt(c4))).includes('legal'), 'an empty point before a selection');
    // Dropped on a point it cannot reach: nothing played, the piece back home.
    await drag(page, context, c5, point('e3'), touch);
    assert.equal(await pieceAt(page, c5), '0');
    assert.equal(await pieceAt(page, point('e3')), null);
    assert.equal(await page.locator('main').getAttribute('data-turns'), '18');
    // Dragged to c4: the piece follows the finger or the mouse, the move is played.
    await drag(page, context, c5, c4, touch, async () => {
      assert.equal(await page.locator('.drag-ghost').count(), 1, 'the lifted piece follows the pointer');
      assert.ok((await classesOf(page, pt(c5))).includes('lifted'));
      if (lang === 'en' && touch) await screenshot(page, 'motion-morris-drag-phone');
    });
    await page.waitForFunction((i) => document.querySelector(`[data-point="${i}"]`).dataset.piece === '0', c4);
    assert.equal(await pieceAt(page, c5), null);
    assert.equal(await page.locator('main').getAttribute('data-turns'), '19');
    assert.equal(await page.locator('.drag-ghost').count(), 0);
    assert.ok(!(await classesOf(page, pt(c4))).includes('slid'), 'a carried piece does not slide again');
    // Red slides by clicks: Red's move animates (data-motion, the class with its offset).
    await page.locator(pt(point('e5'))).click();
    await page.locator(pt(d5)).click();
    assert.equal(await pieceAt(page, d5), '1');
    assert.equal(await page.locator('svg.board').getAttribute('data-motion'), 'move');
    assert.ok((await classesOf(page, pt(d5))).includes('slid'));
    assert.match(await page.locator(pt(d5)).getAttribute('style'), /--dx:100px;--dy:0px/);
    // Red's d5 closed a mill: it takes a7. Then Blue slides f4-e4: the piece, held at the start
    // of its slide, is drawn over f4, the point it left (and e4's point is drawn after f4's): a
    // click on f4 is still f4's — a quick reply into the vacated point — not the sliding
    // piece's, which is e4's.
    await page.locator(pt(point('a7'))).click();
    assert.equal(await pieceAt(page, point('a7')), null);
    await still(page);
    const [f4, e4] = ['f4', 'e4'].map(point);
    await page.locator(pt(f4)).click();
    await page.locator(pt(e4)).click();
    assert.equal(await pieceAt(page, e4), '0');
    await page.evaluate(() => document.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; }));
    const left = await centre(page, f4);
    const drawn = await page.locator(`${pt(e4)} .piece`).boundingBox();
    assert.ok(Math.abs(drawn.x + drawn.width / 2 - left.x) < drawn.width / 4
      && Math.abs(drawn.y + drawn.height / 2 - left.y) < drawn.height / 4, 'the piece is drawn over the point it left');
    const under = (at) => page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-point]')?.dataset.point, at);
    assert.equal(await under(left), String(f4), 'a click on the point just left');
    assert.equal(await under(await centre(page, e4)), String(e4), 'a click on the piece where it goes');
    await page.evaluate(() => document.getAnimations().forEach((a) => a.finish()));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [lang, reduce] of [['fr', false], ['en', true], ['en', false], ['fr', true]]) {
  test(`the computer's move ${reduce ? 'does not animate under prefers-reduced-motion' : 'animates'} (${lang})`, async () => {
    const { page, context, errors } = await open('/moulin/ordinateur', { lang, reduce });
    await start(page, lang);
    assert.equal(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), reduce);
    await page.locator(pt(point('d6'))).click();
    await page.waitForFunction(() => document.querySelector('main').dataset.turns === '2'
      && document.querySelector('main').dataset.thinking !== 'true');
    const red = await page.locator('[data-piece="1"]').getAttribute('data-point');
    const motion = await page.locator('svg.board').getAttribute('data-motion');
    const placed = await classesOf(page, pt(red));
    if (reduce) {
      assert.equal(motion, null);
      assert.ok(!placed.includes('placed'));
      // Nothing animates at all.
      assert.equal(await page.locator(`${pt(red)} .piece`).evaluate((e) => getComputedStyle(e).animationName), 'none');
    } else {
      assert.equal(motion, 'place');
      assert.ok(placed.includes('placed'), `${placed}`);
      assert.equal(await page.locator(`${pt(red)} .piece`).evaluate((e) => getComputedStyle(e).animationName), 'motion-place');
    }
    // While the computer thinks, no point looks clickable: the input is locked.
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('Meta: only the cells of the required board light up on hover; the computer\'s mark animates', async () => {
  const { page, context, errors } = await open('/meta-morpion/ordinateur', { lang: 'en' });
  await start(page, 'en');
  await page.locator(`[data-cell="${cell('e5')}"]`).click();
  await page.waitForFunction(() => document.querySelector('main').dataset.turns === '2'
    && document.querySelector('main').dataset.thinking !== 'true');
  const board = await page.evaluate(() => [...document.querySelectorAll('.small-board.playable')].map((b) => Number(b.dataset.board)));
  assert.equal(board.length, 1, 'one board required after e5 and the answer');
  const inside = await page.locator('.cell.legal').evaluateAll((es) => es.map((e) => Math.floor(Number(e.dataset.cell) / 9)));
  assert.ok(inside.length > 0 && inside.every((b) => b === board[0]), `${inside}`);
  // Hovering a cell of another board: no green.
  const outside = (board[0] + 1) % 9 * 9 + 4;
  await page.locator(`[data-cell="${outside}"]`).hover();
  assert.equal(await page.locator(`[data-cell="${outside}"] .hit`).evaluate((e) => getComputedStyle(e).fill), 'rgba(0, 0, 0, 0)');
  const legal = await page.locator('.cell.legal').first();
  await legal.hover();
  assert.notEqual(await legal.locator('.hit').evaluate((e) => getComputedStyle(e).fill), 'rgba(0, 0, 0, 0)');
  assert.equal(await page.locator('svg.board').getAttribute('data-motion'), 'place');
  assert.equal(await page.locator('.cell.played').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const lang of ['fr', 'en']) {
  test(`the sound switch (${lang}): off by default, on after a choice, remembered across a reload`, async () => {
    const { page, context, errors } = await open('/moulin', { lang });
    const select = page.getByLabel(TEXT[lang].sound);
    assert.equal(await select.inputValue(), 'off');
    await page.locator(pt(point('d6'))).click();
    assert.equal(await page.evaluate(() => window.moulin.played ?? null), null, 'silent by default');
    await select.selectOption({ label: TEXT[lang].on });
    await page.reload();
    await page.locator('svg.board').waitFor();
    assert.equal(await page.getByLabel(TEXT[lang].sound).inputValue(), 'on');
    assert.equal(await page.evaluate(() => localStorage.getItem('moulin-sound-v1')), 'on');
    await page.evaluate(() => { window.moulin.played = null; });
    // The kept game came back with d6 taken: the next placement.
    await page.locator(pt(point('b6'))).click();
    await page.waitForFunction(() => window.moulin.played === 'place');
    await page.getByLabel(TEXT[lang].sound).selectOption({ label: TEXT[lang].off });
    await page.reload();
    await page.locator('svg.board').waitFor();
    assert.equal(await page.getByLabel(TEXT[lang].sound).inputValue(), 'off');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [viewport, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
  test(`remote Morris (${name}): the opponent's move animates, and only the player to move sees clickable points`, async () => {
    const h = await player(viewport);
    const g = await player(viewport);
    const { link } = await createRoom(h.page, 'morris');
    await join(g.page, h.page, link);
    await h.page.locator('main[data-my-turn="true"]').waitFor();
    assert.ok(await g.page.locator('.point.legal').count() === 0, 'not the guest\'s turn');
    assert.ok(await h.page.locator('.point.legal').count() === 24);
    await h.page.locator(pt(point('d6'))).click();
    await g.page.waitForFunction((i) => document.querySelector(`[data-point="${i}"]`).dataset.piece === '0', point('d6'));
    assert.equal(await g.page.locator('svg.board').getAttribute('data-motion'), 'place');
    assert.ok((await classesOf(g.page, pt(point('d6')))).includes('placed'));
    await g.page.locator('main[data-my-turn="true"]').waitFor();
    assert.equal(await h.page.locator('.point.legal').count(), 0);
    assert.equal(await g.page.locator('.point.legal').count(), 23);
    // The guest drags nothing while placing; it places by a tap or click.
    await g.page.locator(pt(point('b4'))).click();
    await h.page.waitForFunction((i) => document.querySelector(`[data-point="${i}"]`).dataset.piece === '1', point('b4'));
    assert.ok((await classesOf(h.page, pt(point('b4')))).includes('placed'));
    assert.deepEqual([...h.errors, ...g.errors], []);
    await h.context.close();
    await g.context.close();
  });
}
