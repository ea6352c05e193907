// Firefox end to end: Debian's stock firefox-esr (puppeteer-core over WebDriver BiDi, firefox.mjs)
// plays a whole hot-seat game by clicks, a whole game against the computer (its Web Worker), and
// two whole remote games with headless Chromium over real WebRTC, each browser with its own
// stack: Chromium hosts a Morris room and Firefox joins by the link; Firefox hosts a Méta
// Morpion room and Chromium joins by the code; and Firefox hosts a Morris room paired by hand
// (« Sans serveur », no relay between them) that Chromium answers. After every turn both boards
// are checked against `engine replay`. Figures: move → opponent's board, each way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startRelay, launchBrowser, DESKTOP, engineReplay, engineAi, morrisClicks, cell, boardString, median,
  MORRIS_GAME, META_GAME,
} from './harness.mjs';
import {
  launchFirefox, firefoxPage, until, untilOnGame, recordClicks, visible, clickNamed, fillLabelled,
} from './firefox.mjs';

let relay;
let chromium;
let firefox;
const latency = { 'Chromium → Firefox': [], 'Firefox → Chromium': [] };

before(async () => {
  relay = await startRelay();
  [chromium, firefox] = await Promise.all([launchBrowser(), launchFirefox()]);
});

after(async () => {
  await firefox?.close();
  await chromium?.close();
  await relay?.stop();
  for (const [way, xs] of Object.entries(latency)) {
    if (xs.length) {
      console.log(`figure: remote, ${way}: move → opponent's board median ${median(xs).toFixed(1)} ms over ${xs.length} moves (max ${Math.max(...xs).toFixed(1)})`);
    }
  }
});

const GAMES = {
  morris: { attr: 'data-point', count: 24, marks: 'BR', key: 'board', clicks: (t) => morrisClicks(t) },
  meta: { attr: 'data-cell', count: 81, marks: 'XO', key: 'cells', clicks: (t) => [cell(t)] },
};

const status = (page) => page.evaluate(() => {
  const s = document.querySelector('[data-status]').dataset;
  return { status: s.status, winner: s.winner ?? null };
});

test('Firefox: a whole hot-seat Morris game by clicks', async () => {
  const { page, context, errors } = await firefoxPage(firefox);
  await page.goto(`${relay.url}/moulin`);
  await page.waitForSelector('[data-point="0"]');
  await recordClicks(page);
  const tokens = MORRIS_GAME.split(' ');
  for (const [i, token] of tokens.entries()) {
    for (const p of morrisClicks(token)) await page.click(`[data-point="${p}"]`);
    await untilOnGame(page, (n) => document.querySelectorAll('[data-ply]').length >= n, i + 1,
      { what: `turn ${i + 1} (${token}) in the history` });
  }
  assert.deepEqual(await status(page), { status: 'won', winner: '0' });
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), engineReplay('morris', MORRIS_GAME).board);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Firefox: a whole Morris game against the computer (« Débutant », its Web Worker)', async () => {
  const { page, context, errors } = await firefoxPage(firefox);
  await page.goto(`${relay.url}/moulin/ordinateur`);
  await fillLabelled(page, 'Limite de tours (1 à 500)', '40');
  await clickNamed(page, 'Débutant', 'label');
  await clickNamed(page, 'Commencer');
  await recordClicks(page);
  // What the page shows, for a failure's message: a lost click and a silent computer differ.
  const waitFor = (fn, arg, what) => untilOnGame(page, fn, arg, { timeout: 30000, what });
  let record = '';
  for (let turns = 0; ;) {
    // The player's turn (Blue), or the end.
    const d = await waitFor((turns) => {
      const d = document.querySelector('main').dataset;
      const status = document.querySelector('[data-status]').dataset.status;
      const ready = status !== 'playing'
        || (d.thinking === 'false' && Number(d.turns) >= turns && Number(d.turns) % 2 === 0);
      return ready && { record: d.record ?? '', turns: Number(d.turns), status };
    }, turns, `the player's turn after ${turns} turns`);
    record = d.record;
    if (d.status !== 'playing') break;
    const token = engineAi('morris', record, { level: 1, seed: turns, maxTurns: 40 });
    const clicks = morrisClicks(token);
    for (const p of clicks) await page.click(`[data-point="${p}"]`);
    // The player's turn is in the record before the computer is waited for.
    await waitFor((n) => Number(document.querySelector('main').dataset.turns) > n, d.turns,
      `the player's turn ${token} (clicks on ${clicks.join(', ')}) after ${d.turns} turns`);
    turns = d.turns + 2;
  }
  assert.ok(record.split(' ').length >= 10, `a whole game: ${record}`);
  const replay = engineReplay('morris', record, 40);
  assert.equal(replay.phase, 'over');
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), replay.board);
  assert.deepEqual(await status(page), {
    status: replay.winner === null ? 'draw' : 'won',
    winner: replay.winner === null ? null : String(replay.winner),
  });
  assert.deepEqual(errors, []);
  await context.close();
});

/** A Chromium player: its own context. */
async function chromiumPlayer() {
  const context = await chromium.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { page, context, errors };
}

/** Records, in a page, when its board last changed (epoch ms). */
const watchBoard = (page) => page.evaluate(() => {
  window.__boardChanges = [];
  new MutationObserver(() => window.__boardChanges.push(performance.timeOrigin + performance.now()))
    .observe(document.querySelector('svg.board'), { subtree: true, attributes: true, attributeFilter: ['data-piece'] });
});

/**
 * Plays `record` between two pages (`blue` moves first), each turn by clicks in the mover's
 * page; after every turn both boards must be the engine's.
 */
async function playRemote(game, record, blue, red, names) {
  const g = GAMES[game];
  const pages = [blue, red];
  await Promise.all(pages.map(watchBoard));
  const tokens = record.split(' ');
  for (const [i, token] of tokens.entries()) {
    const [mover, other] = [pages[i % 2], pages[1 - (i % 2)]];
    await until(mover, () => document.querySelector('main').dataset.myTurn === 'true', null, { what: `turn ${i + 1} for ${names[i % 2]}` });
    const before = await other.evaluate(() => window.__boardChanges.length);
    let clicked = 0;
    for (const at of g.clicks(token)) {
      clicked = await mover.evaluate((sel) => {
        const t = performance.timeOrigin + performance.now();
        document.querySelector(sel).dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
        return t;
      }, `[${g.attr}="${at}"]`);
    }
    const expected = engineReplay(game, tokens.slice(0, i + 1).join(' '))[g.key];
    await until(other, ({ attr, count, marks, expected }) => {
      let s = '';
      for (let k = 0; k < count; k++) {
        const p = document.querySelector(`[${attr}="${k}"]`).getAttribute('data-piece');
        s += p === null ? '.' : marks[Number(p)];
      }
      return s === expected;
    }, { attr: g.attr, count: g.count, marks: g.marks, expected }, { what: `turn ${i + 1} (${token}) on ${names[1 - (i % 2)]}'s board` });
    assert.equal(await boardString(mover, g.attr, g.count, g.marks), expected, `turn ${i + 1} on ${names[i % 2]}'s board`);
    const changes = await other.evaluate(() => window.__boardChanges);
    if (changes.length > before) latency[`${names[i % 2]} → ${names[1 - (i % 2)]}`].push(changes[changes.length - 1] - clicked);
  }
}

test('Chromium hosts a Morris room, Firefox joins by the link: a whole game over WebRTC', async () => {
  const h = await chromiumPlayer();
  const g = await firefoxPage(firefox);
  await h.page.goto(`${relay.url}/moulin/distance`);
  await h.page.getByRole('button', { name: 'Créer le salon' }).click();
  const link = await h.page.locator('[data-invite-link]').inputValue();
  await g.page.goto(link);
  for (const p of [h.page, g.page]) await visible(p, '[data-presence="here"]', '', 30000);
  assert.equal(await g.page.evaluate(() => document.querySelector('main').dataset.seat), 'guest');
  await playRemote('morris', MORRIS_GAME, h.page, g.page, ['Chromium', 'Firefox']);
  for (const p of [h.page, g.page]) assert.deepEqual(await status(p), { status: 'won', winner: '0' });
  assert.deepEqual([...h.errors, ...g.errors], []);
  await h.context.close();
  await g.context.close();
});

test('Firefox hosts a Méta Morpion room, Chromium joins by the code: a whole game over WebRTC', async () => {
  const h = await firefoxPage(firefox);
  const g = await chromiumPlayer();
  await h.page.goto(`${relay.url}/meta-morpion/distance`);
  await clickNamed(h.page, 'Créer le salon');
  await visible(h.page, '[data-code]');
  const code = await h.page.evaluate(() => document.querySelector('[data-code]').dataset.code);
  await g.page.goto(`${relay.url}/meta-morpion/distance`);
  await g.page.getByLabel('Code du salon').fill(code);
  await g.page.getByRole('button', { name: 'Rejoindre' }).click();
  for (const p of [h.page, g.page]) await visible(p, '[data-presence="here"]', '', 30000);
  assert.equal(await h.page.evaluate(() => document.querySelector('main').dataset.seat), 'host');
  await playRemote('meta', META_GAME, h.page, g.page, ['Firefox', 'Chromium']);
  const expected = engineReplay('meta', META_GAME);
  for (const p of [h.page, g.page]) {
    assert.deepEqual(await status(p), { status: 'won', winner: String(expected.winner) });
  }
  assert.deepEqual([...h.errors, ...g.errors], []);
  await h.context.close();
  await g.context.close();
});

test('Firefox hosts a Morris room paired by hand, Chromium answers its offer: a whole game', async () => {
  const h = await firefoxPage(firefox);
  const g = await chromiumPlayer();
  await h.page.goto(`${relay.url}/moulin/distance`);
  await visible(h.page, '[data-serverless]');
  await h.page.click('[data-serverless]');
  await visible(h.page, '[data-offer]');
  const offer = await h.page.evaluate(() => document.querySelector('[data-offer]').value);
  assert.match(offer, /\/moulin\/sans-serveur#p=/);
  await g.page.goto(offer);
  const answer = await g.page.locator('[data-answer]').inputValue({ timeout: 20000 });
  await h.page.evaluate((text) => {
    const box = document.querySelector('[data-answer-input]');
    box.value = text;
    box.form.requestSubmit();
  }, answer);
  for (const p of [h.page, g.page]) await visible(p, '[data-presence="here"]', '', 30000);
  await playRemote('morris', MORRIS_GAME, h.page, g.page, ['Firefox', 'Chromium']);
  for (const p of [h.page, g.page]) assert.deepEqual(await status(p), { status: 'won', winner: '0' });
  assert.deepEqual([...h.errors, ...g.errors], []);
  await h.context.close();
  await g.context.close();
});
