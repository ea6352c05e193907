// Themes end to end, in headless Chromium: the dark theme follows the system's
// `prefers-color-scheme` live; the header's « Thème » switch overrides it, is remembered
// (localStorage `moulin-theme-v1`) across reloads, tabs and both bundles, and is applied before
// the first paint; every page — home, both hot-seat games (mid-game, hint, end, dialog), the
// computer's settings, the lobby, a room, the offline note, the page not found — keeps WCAG AA
// contrast in both themes, measured from the computed styles: 4.5:1 for text (3:1 when large),
// 3:1 for the pieces against the board and for the Morris pieces' marks against the piece;
// Morris pieces carry × (Blue) and ○ (Red). Screenshots of the dark theme; the lowest ratios are
// printed as figures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startRelay, launchBrowser, DESKTOP, screenshot, point, morrisClicks, cell, MORRIS_GAME, META_GAME,
} from './harness.mjs';

let relay;
let browser;
// Per theme: the lowest text ratio (and where), the lowest piece ratio, the lowest mark ratio.
const lowest = {};

before(async () => {
  relay = await startRelay();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await relay?.stop();
  for (const [theme, l] of Object.entries(lowest)) {
    console.log(`figure: ${theme} theme, lowest contrast: text ${l.text.ratio.toFixed(2)} (${l.text.where}), `
      + `pieces on the board ${l.piece.ratio.toFixed(2)} (${l.piece.where}), `
      + `Morris marks on their piece ${l.mark.ratio.toFixed(2)} (${l.mark.where}); `
      + `faded marks of closed Meta boards ${l.faded ? l.faded.toFixed(2) : 'none seen'}`);
  }
});

async function open(path, { colorScheme = 'light' } = {}) {
  // No service worker: « Chargement… » must show while the test holds the wasm back
  // (offline.test.mjs tests the worker).
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme, serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(relay.url + path);
  await page.locator('main').waitFor();
  return { page, context, errors };
}

const theme = (page) => page.evaluate(() => document.documentElement.dataset.theme);
/** The system's preference changes; returns once the page has seen the `change` event (its own
 * listener, added first, has run). */
async function system(page, colorScheme) {
  const changed = page.evaluate(() => new Promise((r) => {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', r, { once: true });
  }));
  await page.emulateMedia({ colorScheme });
  await changed;
}
const switchOf = (page) => page.getByRole('combobox', { name: 'Thème' });

/**
 * In the page: the contrast of every visible text with what is behind it (its background and its
 * ancestors', stacked, opacity included), of form fields' text, of the pieces against their board
 * and of the Morris pieces' marks against the piece. Disabled controls are left out (WCAG 1.4.3
 * exempts inactive components), as are the faded marks of closed Meta boards, reported apart.
 */
function measure() {
  const parse = (c) => {
    let m = c.match(/^rgba?\(([^)]*)\)$/);
    if (m) {
      const v = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [v[0], v[1], v[2], v[3] ?? 1];
    }
    m = c.match(/^color\(srgb ([^)]*)\)$/);
    if (m) {
      const v = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return [v[0] * 255, v[1] * 255, v[2] * 255, v[3] ?? 1];
    }
    return null;
  };
  const over = (top, bottom, alpha = top[3]) => [0, 1, 2].map((i) => top[i] * alpha + bottom[i] * (1 - alpha)).concat(1);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let bg = [255, 255, 255, 1];
    for (const l of layers.reverse()) bg = over(l, bg);
    return bg;
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const describe = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} « ${(el.textContent || el.value || '').trim().slice(0, 40)} »`;
  const texts = [];
  const inactive = (el) => el.closest('fieldset:disabled, button:disabled, input:disabled, select:disabled, .disabled, [aria-disabled="true"]');
  const seen = new Set();
  // With a dialog open, the page behind it is covered: the dialog is what is read.
  const scope = document.querySelector('.backdrop') ?? document.body;
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || seen.has(el) || el.closest('svg, option, noscript, script, style')) continue;
    seen.add(el);
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || inactive(el)) continue;
    texts.push(el);
  }
  for (const el of scope.querySelectorAll('input:not([type=radio]):not([type=checkbox]), select')) {
    if (el.checkVisibility({ visibilityProperty: true }) && !inactive(el)) texts.push(el);
  }
  const text = texts.map((el) => {
    const s = getComputedStyle(el);
    const bg = background(el);
    const fg = over(parse(s.color), bg, parse(s.color)[3] * opacity(el));
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    return { where: describe(el), ratio: ratio(fg, bg), needed: large ? 3 : 4.5 };
  });
  // The drawn boards' « Nulle » is text drawn in the SVG, on the closed board.
  for (const t of scope.querySelectorAll('.meta-board .drawn-mark text')) {
    const bg = parse(getComputedStyle(t.closest('.small-board').querySelector('.board-bg')).fill);
    text.push({ where: 'drawn board « Nulle »', ratio: ratio(parse(getComputedStyle(t).fill), bg), needed: 3 });
  }

  const pieces = [];
  const marks = [];
  const faded = [];
  const morrisBoard = scope.querySelector('.morris-board .board-bg');
  for (const g of scope.querySelectorAll('.morris-board [data-piece]')) {
    const board = parse(getComputedStyle(morrisBoard).fill);
    const piece = parse(getComputedStyle(g.querySelector('.piece')).fill);
    const mark = g.querySelector('.piece-mark');
    const who = g.dataset.piece === '0' ? 'blue' : 'red';
    pieces.push({ where: `Morris ${who} piece`, ratio: ratio(piece, board), needed: 3 });
    marks.push({ where: `${who} mark`, ratio: mark ? ratio(parse(getComputedStyle(mark).stroke), piece) : 0, needed: 3 });
  }
  for (const m of scope.querySelectorAll('.meta-board .mark')) {
    const cellOf = m.closest('[data-cell]');
    const board = cellOf ? Math.floor(Number(cellOf.dataset.cell) / 9) : m.closest('[data-board]').dataset.board;
    const bg = parse(getComputedStyle(document.querySelector(`[data-board="${board}"] .board-bg`)).fill);
    const fg = over(parse(getComputedStyle(m).stroke), bg, Number(getComputedStyle(m).opacity));
    const who = m.classList.contains('cross') ? 'blue ×' : 'red ○';
    const entry = { where: `Meta ${who}${m.classList.contains('big') ? ' (won board)' : ''}`, ratio: ratio(fg, bg), needed: 3 };
    (m.classList.contains('dim') ? faded : pieces).push(entry);
  }
  return { text, pieces, marks, faded };
}

/** Measures the page in both themes (through the system's preference, followed live) and
 * checks every ratio; keeps the lowest ones for the figures. */
async function checkContrast(page, label) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme, { timeout: 2000 });
    // The last move's animation (a mark fading in) over: the colours it ends on are measured.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    const m = await page.evaluate(measure);
    assert.ok(m.text.length > 0, `${label}: some text was measured`);
    const low = (lowest[scheme] ??= {
      text: { ratio: 99 }, piece: { ratio: 99 }, mark: { ratio: 99 }, faded: null,
    });
    for (const [kind, list] of [['text', m.text], ['piece', m.pieces], ['mark', m.marks]]) {
      for (const r of list) {
        assert.ok(r.ratio >= r.needed, `${label}, ${scheme}: ${r.where} has contrast ${r.ratio.toFixed(2)} < ${r.needed}`);
        if (r.ratio < low[kind].ratio) low[kind] = { ratio: r.ratio, where: `${label}: ${r.where}` };
      }
    }
    for (const r of m.faded) low.faded = Math.min(low.faded ?? 99, r.ratio);
    if (scheme === 'dark') await screenshot(page, `${label}-dark-desktop`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 2000 });
  return page.evaluate(measure);
}

async function playMorris(page, tokens) {
  for (const token of tokens) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
}

test('every page keeps AA contrast in both themes, pieces and marks included', async () => {
  const { page, context, errors } = await open('/');
  await checkContrast(page, 'home');

  await page.goto(`${relay.url}/moulin`);
  await playMorris(page, MORRIS_GAME.split(' ').slice(0, 18)); // the placements
  await page.getByRole('button', { name: 'Suggérer un coup' }).click();
  await page.locator('main[data-hint]').waitFor();
  await page.locator(`[data-point="${point('d5')}"]`).click(); // a selected piece, its destinations
  const mid = await checkContrast(page, 'morris-mid');
  assert.ok(mid.pieces.some((p) => p.where.includes('blue')) && mid.pieces.some((p) => p.where.includes('red')));
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await page.getByRole('dialog').waitFor();
  const dialog = await checkContrast(page, 'morris-new-game-dialog');
  assert.ok(dialog.text.some((t) => t.where.includes('Commencer une nouvelle partie')), 'the dialog was measured');
  // The page's rules panel and history say « Règles en vigueur »; the dialog's rules choice does not.
  assert.ok(dialog.text.every((t) => !t.where.includes('Règles en vigueur') && !t.where.includes('Historique')), 'not the page behind it');

  await page.goto(`${relay.url}/meta-morpion`);
  for (const name of META_GAME.split(' ')) await page.locator(`[data-cell="${cell(name)}"]`).click();
  await page.locator('[data-status="won"]').waitFor();
  const end = await checkContrast(page, 'meta-end');
  assert.ok(end.text.some((t) => t.where.includes('drawn board')), 'the drawn board was measured');
  assert.ok(end.pieces.some((p) => p.where.includes('won board')), 'the won boards were measured');

  await page.goto(`${relay.url}/moulin/ordinateur`);
  await page.getByRole('radio', { name: 'Débutant' }).waitFor();
  await checkContrast(page, 'computer-morris');

  await page.goto(`${relay.url}/moulin/distance`);
  await page.getByRole('button', { name: 'Créer le salon' }).click();
  await page.locator('[data-invite-link]').waitFor();
  await page.locator('[data-presence="waiting"]').waitFor();
  await checkContrast(page, 'remote-room-waiting');
  assert.deepEqual(errors, []);
  await context.setOffline(true);
  await page.locator('#offline-note').waitFor();
  await checkContrast(page, 'remote-room-offline');
  await context.setOffline(false);

  await page.goto(`${relay.url}/moulin/distance`);
  await page.getByRole('button', { name: 'Créer le salon' }).waitFor();
  await checkContrast(page, 'remote-lobby');

  await page.goto(`${relay.url}/nulle-part`);
  await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
  await checkContrast(page, 'not-found');
  await context.close();
});

test('the theme switch overrides the system, is remembered, and is applied before the first paint', async () => {
  const { page, context, errors } = await open('/moulin', { colorScheme: 'light' });
  assert.equal(await theme(page), 'light');
  assert.equal(await switchOf(page).inputValue(), 'system');
  const paper = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const lightPaper = await paper();

  await switchOf(page).selectOption({ label: 'Sombre' });
  assert.equal(await theme(page), 'dark');
  assert.notEqual(await paper(), lightPaper);
  assert.equal(await page.evaluate(() => localStorage.getItem('moulin-theme-v1')), 'dark');
  assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), false);
  assert.equal(await theme(page), 'dark', 'the choice wins over the system');

  // Reloaded with the app held back: the page is already dark while « Chargement… » shows.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await page.reload({ waitUntil: 'commit' });
  await page.locator('.loading').waitFor();
  assert.equal(await theme(page), 'dark');
  assert.equal(await paper(), await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.background = 'var(--paper)';
    document.body.append(probe);
    const c = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return c;
  }));
  assert.notEqual(await paper(), lightPaper, 'dark before the app has started');
  release();
  await page.locator('main').waitFor();
  await page.unroute(/_bg\.wasm$/);
  assert.equal(await switchOf(page).inputValue(), 'dark');

  // The other bundle's pages, and another tab, which follows a change at once.
  await page.goto(`${relay.url}/meta-morpion/distance`);
  await page.locator('main').waitFor();
  assert.equal(await theme(page), 'dark');
  assert.equal(await switchOf(page).inputValue(), 'dark');
  const other = await context.newPage();
  await other.goto(`${relay.url}/meta-morpion`);
  await other.locator('main').waitFor();
  assert.equal(await theme(other), 'dark');
  await switchOf(page).selectOption({ label: 'Clair' });
  await other.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.equal(await switchOf(other).inputValue(), 'light');
  await system(page, 'dark');
  assert.equal(await theme(page), 'light', 'light chosen, dark system');

  // Back to following the system, live.
  await switchOf(page).selectOption({ label: 'Automatique' });
  assert.equal(await page.evaluate(() => localStorage.getItem('moulin-theme-v1')), 'system');
  assert.equal(await theme(page), 'dark');
  await system(page, 'light');
  assert.equal(await theme(page), 'light');
  await page.reload();
  await page.locator('main').waitFor();
  assert.equal(await switchOf(page).inputValue(), 'system');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Morris pieces carry a mark besides their colour: × for Blue, ○ for Red', async () => {
  const { page, context } = await open('/moulin', { colorScheme: 'dark' });
  const tokens = MORRIS_GAME.split(' ').slice(0, 6);
  await playMorris(page, tokens);
  await screenshot(page, 'morris-marks-dark-desktop');
  const shapes = await page.evaluate(() => [...document.querySelectorAll('.morris-board [data-piece]')].map((g) => {
    const piece = g.querySelector('.piece');
    const mark = g.querySelector('.piece-mark');
    const [x, y] = ['cx', 'cy'].map((a) => Number(piece.getAttribute(a)));
    const at = (dx, dy) => Boolean(mark && mark.isPointInStroke(new DOMPoint(x + dx, y + dy)));
    return {
      player: g.dataset.piece,
      visible: Boolean(mark && mark.checkVisibility({ opacityProperty: true, visibilityProperty: true })),
      // × crosses the centre and its diagonals; ○ goes round it at 11 units.
      centre: at(0, 0), diagonal: at(6, 6), side: at(11, 0), above: at(0, -11),
    };
  }));
  assert.equal(shapes.length, 6);
  for (const s of shapes) {
    assert.ok(s.visible, JSON.stringify(s));
    const cross = { centre: true, diagonal: true, side: false, above: false };
    const ring = { centre: false, diagonal: false, side: true, above: true };
    const { player, visible, ...shape } = s;
    assert.deepEqual(shape, player === '0' ? cross : ring, `player ${player}`);
  }
  await context.close();
});
