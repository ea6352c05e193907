// Against the computer, end to end in headless Chromium: a whole game of each game against each
// level's worker (the player's turns come from `engine ai --level 1`) — against « Débutant », its
// history stepped through and opened in the viewer by the end-of-game link —, browsing back
// while the computer thinks (its turn lands underneath), undo and new game while
// the computer thinks (its worker is terminated and its answer never lands), undo while its
// Morris capture waits to land, the input lock, the undo policy when the computer opened, new
// game keeping the settings, the keyboard, the page offline once the worker is loaded (no
// request leaves it), « Suggérer un coup » in hot-seat and against the computer (the worker
// loaded only then; remote.test.mjs checks there is none in a remote game), screenshots, and
// the figures: time per computer turn by level, the worker's size, and the search's speed in
// the worker against native `engine ai`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync, execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  ROOT, STATIC_DIR, ENGINE_BIN, startRelay, launchBrowser, DESKTOP, PHONE, screenshot, engineReplay, engineAi, point,
  morrisClicks, cell, boardString, tabIntoBoard, arrowTo, morrisCoords, median, COUNT_PAGE, timersDone,
} from './harness.mjs';

let relay;
let browser;
const LEVELS = ['Débutant', 'Facile', 'Moyen', 'Fort'];
// Per level: reply time (request sent → answer received) and search time in the worker, ms.
const times = LEVELS.map(() => ({ reply: [], search: [] }));

before(async () => {
  relay = await startRelay();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await relay?.stop();
  times.forEach((t, i) => {
    if (!t.reply.length) return;
    const f = (xs) => `median ${median(xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}`;
    console.log(`figure: « ${LEVELS[i]} », ${t.reply.length} computer turns: reply ${f(t.reply)} ms; search in the worker ${f(t.search)} ms`);
  });
});

/** A fresh page (own context) that records every request (its workers' too) and page error.
 * `init` (a function or a list of them) runs in the page before its own scripts. */
async function open(route, viewport = DESKTOP, init = null) {
  const context = await browser.newContext({ viewport, ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}) });
  for (const script of [init ?? []].flat()) await context.addInitScript(script);
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  // The page's requests and its workers': not the service worker's, which caches the whole site
  // in the background for offline use, the computer's worker included (offline.test.mjs).
  context.on('request', (r) => { if (!r.serviceWorker()) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(relay.url + route);
  await page.locator('main').waitFor();
  return { page, context, requests, errors };
}

/** Lets the page render what the last event changed. */
const settled = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The page's hooks: turns, record, the player's side, the computer's last figures, the status. */
function state(page) {
  return page.evaluate(() => {
    const d = document.querySelector('main').dataset;
    const s = document.querySelector('[data-status]').dataset;
    return {
      thinking: d.thinking === 'true', turns: Number(d.turns), record: d.record,
      human: d.human === undefined ? null : Number(d.human), figures: d.figures ?? null,
      hint: d.hint ?? null, status: s.status, winner: s.winner ?? null,
    };
  });
}

/** Waits until at least `turns` turns are played and the player is to move, or the game ended. */
async function playerToMove(page, turns) {
  await page.waitForFunction((turns) => {
    const d = document.querySelector('main').dataset;
    if (document.querySelector('[data-status]').dataset.status !== 'playing') return true;
    return d.thinking === 'false' && Number(d.turns) >= turns && Number(d.turns) % 2 === Number(d.human);
  }, turns, { timeout: 30000 });
  return state(page);
}

async function playToken(page, game, token) {
  if (game === 'morris') {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  } else {
    await page.locator(`[data-cell="${cell(token)}"]`).click();
  }
}

const gamePath = (game) => (game === 'morris' ? '/moulin' : '/meta-morpion');

/** Chooses the settings above the board, then « Commencer »: the game begins. */
async function choose(page, { level, side, limit } = {}) {
  if (limit !== undefined) await page.getByLabel('Limite de tours (1 à 500)').fill(String(limit));
  if (level !== undefined) await page.getByRole('radio', { name: LEVELS[level - 1] }).check();
  if (side !== undefined) await page.getByRole('radio', { name: side }).check();
  await page.locator('[data-setup]').getByRole('button', { name: 'Commencer' }).click();
  await page.locator('[data-setup]').waitFor({ state: 'detached' });
  await settled(page);
}

/** Plays the player's turns with `engine ai --level 1` until the end; the computer's turn times
 * go to the figures. Returns the final state. */
async function playToTheEnd(page, game, level, limit, seed) {
  let st = await playerToMove(page, 0);
  let computerTurns = 0;
  for (;;) {
    if (st.turns > 0 && st.figures && st.turns % 2 === st.human) {
      const [, search, reply] = st.figures.split(' ').map(Number);
      times[level - 1].reply.push(reply);
      times[level - 1].search.push(search);
      computerTurns += 1;
    }
    if (st.status !== 'playing') break;
    const token = engineAi(game, st.record, { level: 1, seed: seed + st.turns, maxTurns: limit });
    await playToken(page, game, token);
    st = await playerToMove(page, st.turns + 2);
  }
  return { ...st, computerTurns };
}

const WHOLE_GAMES = [
  // game, level, side, Morris limit
  ['morris', 1, 'Bleu (commence)', undefined],
  ['morris', 2, 'Rouge', undefined],
  ['morris', 3, 'Au hasard', undefined],
  ['morris', 4, 'Rouge', 30], // « Fort » thinks a second a turn: a shorter game
  ['meta', 1, 'Rouge', undefined],
  ['meta', 2, 'Bleu (commence)', undefined],
  ['meta', 3, 'Rouge', undefined],
  ['meta', 4, 'Bleu (commence)', undefined],
];

for (const [game, level, side, limit] of WHOLE_GAMES) {
  test(`a whole ${game} game against « ${LEVELS[level - 1]} », the player ${side}${limit ? `, limit ${limit}` : ''}`, async () => {
    const { page, context, requests, errors } = await open(`${gamePath(game)}/ordinateur`);
    assert.ok(!requests.some((u) => u.includes('/worker-')), 'the worker waits for the first request');
    await choose(page, { level, side, limit });
    const end = await playToTheEnd(page, game, level, limit, level * 100);
    assert.notEqual(end.status, 'playing');
    assert.ok(end.computerTurns > 0);
    // The board and the result are the engine's for the record the page shows.
    const replay = engineReplay(game, end.record, game === 'morris' ? limit : undefined);
    assert.equal(await boardString(page, ...(game === 'morris' ? ['data-point', 24, 'BR'] : ['data-cell', 81, 'XO'])),
      game === 'morris' ? replay.board : replay.cells);
    assert.equal(end.winner, replay.winner === null ? null : String(replay.winner));
    if (game === 'meta' && level === 4) await screenshot(page, 'computer-meta-end-desktop');
    if (level === 1) await historyAndViewer(page, game, end.record, limit);
    // Once loaded, only the worker's two files were fetched, once each, and nothing else.
    const worker = requests.filter((u) => u.includes('/worker-'));
    assert.equal(worker.length, 2, worker.join(' '));
    for (const url of requests) assert.ok(url.startsWith(relay.url) || url.startsWith('blob:'), url);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// The turns of the history (`data-ply="0"` is its « Début »).
const TURNS = '[data-ply]:not([data-ply="0"])';
const board = (page, game) => boardString(page, ...(game === 'morris' ? ['data-point', 24, 'BR'] : ['data-cell', 81, 'XO']));
const position = (game, tokens, limit) => {
  const r = engineReplay(game, tokens.join(' '), game === 'morris' ? limit : undefined);
  return game === 'morris' ? r.board : r.cells;
};

/** A finished game against the computer: its history is the record, both sides' turns; it is
 * stepped through from the start, read-only; its end links to the viewer, which replays it. */
async function historyAndViewer(page, game, record, limit) {
  const tokens = record.split(' ');
  assert.deepEqual(await page.locator(TURNS).allTextContents(), tokens);
  assert.equal(await page.locator('[data-ply][aria-current]').getAttribute('data-ply'), String(tokens.length));
  await page.locator('h1').click(); // keys outside the board
  await page.keyboard.press('Home');
  await page.locator('[data-browsing="0"]').waitFor();
  assert.equal(await board(page, game), position(game, [], limit));
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('ArrowRight');
    await page.locator(`[data-browsing="${i}"]`).waitFor();
    assert.equal(await board(page, game), position(game, tokens.slice(0, i), limit));
  }
  // Turn 4 is the computer's or the player's: a click on the board plays nothing.
  await page.locator(TURNS).nth(3).click();
  await page.locator('[data-browsing="4"]').waitFor();
  await page.locator(game === 'morris' ? '[data-point="0"]' : '[data-cell="0"]').click();
  await page.getByText('Vous regardez une position passée : « Retour à la partie » pour jouer.').waitFor();
  assert.equal(await page.locator('main').getAttribute('data-record'), record);
  await page.getByRole('button', { name: 'Retour à la partie' }).click();
  await page.locator('[data-browsing]').waitFor({ state: 'detached' });
  assert.equal(await board(page, game), position(game, tokens, limit));
  // « Revoir la partie dans la visionneuse »: the record, its headers, in /partie.
  await page.locator('[data-review]').click();
  await page.waitForURL(/\/partie#r=/);
  const v = page.locator('[data-verified]');
  await v.waitFor();
  assert.equal(await v.getAttribute('data-verified'), 'true', await v.textContent());
  assert.deepEqual(await page.locator(TURNS).allTextContents(), tokens);
  assert.equal(await board(page, game), position(game, tokens, limit));
  await page.keyboard.press('Home');
  await page.locator('[data-ply-shown="0"]').waitFor();
  assert.equal(await board(page, game), position(game, [], limit));
}

test('browsing back while the computer thinks: its turn lands in the history, the past position stays shown', async () => {
  const { page, context, errors } = await open('/meta-morpion/ordinateur');
  // « Fort » thinks 900 ms: time enough to look back at the start.
  await choose(page, { level: 4 });
  const now = await clicksInPage(page, [cellAt('e5'), '[data-ply="0"]']);
  assert.deepEqual([now.thinking, now.turns], [true, 1]);
  await page.locator('[data-browsing="0"]').waitFor();
  const st = await playerToMove(page, 2);
  // The computer's answer is in the list and the record, the board still shows the start.
  assert.equal((await page.locator(TURNS).allTextContents()).join(' '), st.record);
  assert.equal(await page.locator('[data-browsing="0"]').count(), 1);
  assert.equal(await board(page, 'meta'), position('meta', [], undefined));
  await page.getByRole('button', { name: 'Retour à la partie' }).click();
  await page.locator('[data-browsing]').waitFor({ state: 'detached' });
  assert.equal(await board(page, 'meta'), position('meta', st.record.split(' '), undefined));
  assert.deepEqual(errors, []);
  await context.close();
});

/** Watches the page's workers; the function it returns waits until `n` were terminated. */
function workerClosings(page) {
  const closed = [];
  page.on('worker', (w) => w.on('close', () => closed.push(w.url())));
  return async (n) => {
    for (let i = 0; i < 400 && closed.length < n; i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(closed.length >= n, `${closed.length} workers terminated, expected ${n}`);
  };
}

/**
 * Clicks each target inside the page, a rendered frame apart: a CSS selector, or [selector, text]
 * for the element with that text. Returns the hooks right after the last click. Quicker than
 * one Playwright call per click: these land while « Fort » still thinks, even on a busy machine.
 */
function clicksInPage(page, targets) {
  return page.evaluate(async (targets) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const t of targets) {
      const [selector, text] = Array.isArray(t) ? t : [t, null];
      const el = [...document.querySelectorAll(selector)]
        .find((e) => text === null || e.textContent.trim() === text);
      if (!el) throw new Error(`nothing to click: ${selector} ${text ?? ''}`);
      if (el.click) el.click(); else el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await frame();
    }
    const d = document.querySelector('main').dataset;
    return {
      thinking: d.thinking === 'true', turns: Number(d.turns), human: Number(d.human),
      status: document.querySelector('[data-status]').textContent,
      notice: document.querySelector('.notice')?.textContent ?? null,
      busy: document.querySelector('svg.board').getAttribute('aria-busy'),
      hintDisabled: [...document.querySelectorAll('button')].find((b) => b.textContent === 'Suggérer un coup').disabled,
    };
  }, targets);
}

const cellAt = (name) => `[data-cell="${cell(name)}"]`;
const button = (text) => ['button', text];
const dialogRadio = (text) => ['[role="dialog"] label', text];

test('undo and new game while the computer thinks stop its worker; its answer never lands; the board is locked meanwhile', async () => {
  const { page, context, errors } = await open('/meta-morpion/ordinateur', DESKTOP, COUNT_PAGE);
  const terminated = workerClosings(page);
  await choose(page, { level: 4 });
  // The lock: while it thinks, a click is refused and says why; a1 is not in the board where
  // the computer must answer, so it stays empty.
  let now = await clicksInPage(page, [cellAt('e5'), cellAt('a1')]);
  assert.deepEqual(now, {
    thinking: true, turns: 1, human: 0, status: 'L\'ordinateur réfléchit…',
    notice: 'L\'ordinateur réfléchit… attendez son coup.', busy: 'true', hintDisabled: true,
  });
  await screenshot(page, 'computer-meta-thinking-desktop');
  let st = await playerToMove(page, 2);
  assert.equal(await page.locator(cellAt('a1')).getAttribute('data-piece'), null);
  // Undo while it thinks: the search is stopped (its worker terminated), the player's turn taken
  // back, and nothing lands afterwards: the worker that could answer is gone, and every timeout
  // the page had set (a landing it put off) has fired.
  const mine = engineAi('meta', st.record);
  now = await clicksInPage(page, [cellAt(mine), button('Annuler le coup')]);
  assert.deepEqual([now.thinking, now.turns], [false, 2]);
  await terminated(1);
  await timersDone(page);
  assert.equal((await state(page)).record, st.record);
  // New game while it thinks: a new game with the player Red (the computer opens), then at once
  // another with the player Blue.
  now = await clicksInPage(page, [
    button('Nouvelle partie'), dialogRadio('Rouge'), button('Commencer'),
    button('Nouvelle partie'), dialogRadio('Bleu (commence)'), button('Commencer'),
  ]);
  assert.deepEqual([now.thinking, now.turns, now.human], [false, 0, 0]);
  await terminated(2);
  await timersDone(page);
  st = await state(page);
  assert.deepEqual([st.turns, st.human, st.thinking], [0, 0, false]);
  // Play on: the next worker answers the new position only.
  await page.locator(cellAt('a1')).click();
  st = await playerToMove(page, 2);
  assert.equal(st.record.split(' ')[0], 'a1');
  assert.doesNotThrow(() => engineReplay('meta', st.record));
  // A hint against the computer: « Fort » for the player, shown framed, legal.
  await page.getByRole('button', { name: 'Suggérer un coup' }).click();
  await page.locator('main[data-hint]').waitFor();
  st = await state(page);
  assert.doesNotThrow(() => engineReplay('meta', `${st.record} ${st.hint}`));
  assert.equal(await page.locator(`${cellAt(st.hint)} .hint-frame`).count(), 1);
  assert.match(await page.locator('.hint-line').textContent(), /^Suggestion : jouer en [a-i][1-9]/);
  assert.equal(st.turns, 2, 'a hint is not a move');
  assert.deepEqual(errors, []);
  await context.close();
});

test('when the computer opens, undo never takes back its opening turn alone', async () => {
  const { page, context } = await open('/moulin/ordinateur');
  const undo = page.getByRole('button', { name: 'Annuler le coup' });
  await choose(page, { level: 1, side: 'Rouge' });
  let st = await playerToMove(page, 1);
  assert.equal(st.human, 1);
  assert.ok(await undo.isDisabled());
  assert.match(await page.locator('[data-status]').textContent(), /^L'ordinateur a joué [a-g][1-7]\. À vous \(Rouge\) : posez un pion\.$/);
  const opening = st.record;
  await playToken(page, 'morris', engineAi('morris', st.record));
  st = await playerToMove(page, 3);
  await undo.click();
  await page.locator('main[data-turns="1"]').waitFor();
  st = await state(page);
  assert.equal(st.record, opening);
  assert.ok(await undo.isDisabled());
  await context.close();
});

test('undo while the computer\'s Morris capture waits to land: its turn and the player\'s go, the capture never lands', async () => {
  // The page's seed fixed (it is its only randomness), so against « Moyen » (a fixed budget)
  // the game is the same at every run.
  const { page, context, errors } = await open('/moulin/ordinateur', DESKTOP, [() => {
    crypto.getRandomValues = (a) => a.fill(7);
  }, COUNT_PAGE]);
  await choose(page, { level: 3 });
  let st = await playerToMove(page, 0);
  let landing = null;
  while (!landing && st.status === 'playing' && st.turns < 40) {
    const before = st;
    const mine = engineAi('morris', st.record, { seed: st.turns });
    await playToken(page, 'morris', mine);
    // Inside the page, a frame at a time: when the computer's move shows and its capture waits,
    // undo at once (the capture lands 600 ms after the move).
    landing = await page.evaluate((turns) => new Promise((resolve) => {
      const check = () => {
        const d = document.querySelector('main').dataset;
        const status = document.querySelector('[data-status]');
        if (status.textContent.startsWith('L\'ordinateur a formé un moulin')) {
          const { thinking, record } = d;
          [...document.querySelectorAll('button')].find((b) => b.textContent === 'Annuler le coup').click();
          resolve({ thinking, record });
        } else if (status.dataset.status !== 'playing' || (d.thinking === 'false' && Number(d.turns) >= turns + 2)) {
          resolve(null);
        } else requestAnimationFrame(check);
      };
      check();
    }), before.turns);
    if (landing) {
      // The computer's move was on the board, its turn not yet in the record.
      assert.equal(landing.thinking, 'true');
      assert.equal(landing.record, `${before.record} ${mine}`.trim());
      await settled(page);
      st = await state(page);
      assert.deepEqual([st.record, st.turns, st.thinking], [before.record, before.turns, false]);
      // Once the capture's delay and every other timeout the page had set are past: nothing
      // lands, the board is the record's.
      await timersDone(page);
      st = await state(page);
      assert.deepEqual([st.record, st.thinking], [before.record, false]);
      assert.equal(await boardString(page, 'data-point', 24, 'BR'), engineReplay('morris', before.record).board);
    } else {
      st = await playerToMove(page, before.turns + 2);
    }
  }
  assert.ok(landing, `the computer formed no mill in ${st.turns} turns`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('new game keeps the settings; the dialog can change them', async () => {
  const { page, context } = await open('/moulin/ordinateur');
  await choose(page, { level: 3, side: 'Rouge', limit: 40 });
  let st = await playerToMove(page, 1);
  await playToken(page, 'morris', engineAi('morris', st.record, { maxTurns: 40 }));
  st = await playerToMove(page, 3);
  // Settled by « Commencer »: only « Nouvelle partie » offers them again.
  assert.equal(await page.getByRole('radio', { name: 'Moyen' }).count(), 0);
  assert.equal(await page.getByLabel('Limite de tours (1 à 500)').count(), 0);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  const dialog = page.getByRole('dialog');
  assert.ok(await dialog.getByRole('radio', { name: 'Moyen' }).isChecked());
  assert.ok(await dialog.getByRole('radio', { name: 'Rouge' }).isChecked());
  assert.equal(await dialog.getByRole('spinbutton').inputValue(), '40');
  await screenshot(page, 'computer-new-game-dialog-desktop');
  // « Reprendre la partie » keeps the game.
  await page.getByRole('button', { name: 'Reprendre la partie' }).click();
  assert.equal((await state(page)).record, st.record);
  // « Commencer » as it is: same level, side and limit; the computer opens again.
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await page.getByRole('button', { name: 'Commencer' }).click();
  await settled(page);
  st = await playerToMove(page, 1);
  assert.deepEqual([st.turns, st.human], [1, 1]);
  assert.match(await page.locator('.progress').textContent(), /Tours joués : 1 sur 40/);
  assert.match(await page.locator('[data-player="0"]').textContent(), /Bleu · ordinateur \(Moyen\)/);
  // Changed in the dialog: Blue against « Débutant ».
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  await dialog.getByRole('radio', { name: 'Débutant' }).check();
  await dialog.getByRole('radio', { name: 'Bleu (commence)' }).check();
  await page.getByRole('button', { name: 'Commencer' }).click();
  await page.locator('main[data-human="0"][data-turns="0"]').waitFor();
  assert.match(await page.locator('[data-player="1"]').textContent(), /Rouge · ordinateur \(Débutant\)/);
  await page.getByRole('button', { name: 'Nouvelle partie' }).click();
  assert.ok(await dialog.getByRole('radio', { name: 'Débutant' }).isChecked());
  await page.getByRole('button', { name: 'Reprendre la partie' }).click();
  await context.close();
});

test('the keyboard plays against the computer as in hot-seat', async () => {
  const { page, context } = await open('/moulin/ordinateur');
  await choose(page);
  await tabIntoBoard(page, 'data-point');
  for (const name of ['d6', 'b4', 'f4']) {
    const st = await playerToMove(page, 0);
    const target = [name, 'd2', 'd5', 'e4', 'a7'].find((n) => !st.record.split(' ').includes(n));
    await arrowTo(page, 'data-point', point(target), morrisCoords);
    await page.keyboard.press('Enter');
    await playerToMove(page, st.turns + 2);
  }
  const st = await state(page);
  assert.equal(st.turns, 6);
  assert.doesNotThrow(() => engineReplay('morris', st.record));
  await context.close();
});

test('offline once the worker is loaded: the game goes on, a new worker starts from memory, no request leaves the page', async () => {
  const { page, context, requests, errors } = await open('/moulin/ordinateur');
  const terminated = workerClosings(page);
  await choose(page, { level: 2 });
  await playToken(page, 'morris', 'd6');
  let st = await playerToMove(page, 2);
  const loaded = requests.length;
  assert.equal(requests.filter((u) => u.includes('/worker-')).length, 2);
  await context.setOffline(true);
  // A hint stopped by a move terminates the worker: the computer's turn needs a new one.
  const mine = engineAi('morris', st.record);
  assert.ok(!mine.includes('-') && !mine.includes('x'), 'a placement without capture');
  await clicksInPage(page, [button('Suggérer un coup'), `[data-point="${point(mine)}"]`]);
  await terminated(1);
  st = await playerToMove(page, 4);
  for (let i = 0; i < 6 && st.status === 'playing'; i++) {
    await playToken(page, 'morris', engineAi('morris', st.record, { seed: i }));
    st = await playerToMove(page, st.turns + 2);
  }
  await page.getByRole('button', { name: 'Annuler le coup' }).click();
  await page.locator(`main[data-turns="${st.turns - 2}"]`).waitFor();
  await screenshot(page, 'computer-morris-offline-desktop');
  const after = requests.slice(loaded);
  assert.ok(after.length > 0, 'the new workers were seen');
  for (const url of after) assert.ok(url.startsWith('blob:'), `a request left the page: ${url}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('hot-seat hints: the worker is fetched on the first « Suggérer un coup » only; the move is framed', async () => {
  const { page, context, requests, errors } = await open('/moulin');
  for (const name of ['a7', 'b6', 'd7', 'd6']) await page.locator(`[data-point="${point(name)}"]`).click();
  assert.ok(!requests.some((u) => u.includes('/worker-')), 'no worker before the hint');
  await page.getByRole('button', { name: 'Suggérer un coup' }).click();
  await page.locator('main[data-hint]').waitFor();
  let st = await state(page);
  assert.doesNotThrow(() => engineReplay('morris', `${st.record} ${st.hint}`));
  const [body, capture] = st.hint.split('x');
  const [from, to] = body.includes('-') ? body.split('-') : [null, body];
  assert.equal(from, null, 'placements still');
  assert.equal(await page.locator(`[data-point="${point(to)}"] .hint-frame`).count(), 1);
  assert.equal(await page.locator('.hint-frame').count(), 1);
  assert.equal(await page.locator('.hint-capture').count(), capture ? 1 : 0);
  assert.equal(await page.locator('.hint-line').textContent(),
    `Suggestion : poser en ${to}${capture ? `, puis capturer ${capture}` : ''}.`);
  assert.match(await page.locator(`[data-point="${point(to)}"]`).getAttribute('aria-label'), /suggestion : arrivée/);
  await screenshot(page, 'morris-hint-desktop');
  // Following it keeps its capture suggested; the move ends the hint.
  await page.locator(`[data-point="${point(to)}"]`).click();
  if (capture) {
    assert.equal((await state(page)).hint, st.hint);
    await page.locator(`[data-point="${point(capture)}"]`).click();
  }
  await page.locator('main:not([data-hint])').waitFor();
  assert.equal(await page.locator('.hint-frame').count(), 0);
  assert.equal(requests.filter((u) => u.includes('/worker-')).length, 2);
  await context.close();
  // Méta Morpion, and the phone width.
  const meta = await open('/meta-morpion', PHONE);
  await meta.page.locator(`[data-cell="${cell('e5')}"]`).click();
  await meta.page.getByRole('button', { name: 'Suggérer un coup' }).click();
  await meta.page.locator('main[data-hint]').waitFor();
  st = await state(meta.page);
  assert.doesNotThrow(() => engineReplay('meta', `${st.record} ${st.hint}`));
  assert.equal(cell(st.hint) >= 36 && cell(st.hint) < 45, true, 'in the centre board');
  await screenshot(meta.page, 'meta-hint-phone');
  assert.deepEqual([...errors, ...meta.errors], []);
  await meta.context.close();
});

test('home: « Contre l\'ordinateur » under each game; screenshots of a game against the computer', async () => {
  const { page, context } = await open('/');
  const links = page.getByRole('link', { name: 'Contre l\'ordinateur' });
  assert.equal(await links.count(), 2);
  await links.nth(1).click();
  await page.locator('[data-cell="40"]').waitFor();
  assert.equal(new URL(page.url()).pathname, '/meta-morpion/ordinateur');
  await page.waitForFunction(() => document.title === 'Méta Morpion — contre l\'ordinateur');
  await page.goBack();
  await links.first().click();
  await page.locator('[data-point="0"]').waitFor();
  assert.equal(new URL(page.url()).pathname, '/moulin/ordinateur');
  await screenshot(page, 'computer-morris-start-desktop');
  await choose(page, { level: 3 });
  let st = await playerToMove(page, 0);
  for (let i = 0; i < 7; i++) {
    await playToken(page, 'morris', engineAi('morris', st.record, { seed: 7 + i }));
    st = await playerToMove(page, st.turns + 2);
  }
  await page.getByRole('button', { name: 'Suggérer un coup' }).click();
  await page.locator('main[data-hint]').waitFor();
  await screenshot(page, 'computer-morris-hint-desktop');
  await context.close();
  const phone = await open('/moulin/ordinateur', PHONE);
  await choose(phone.page, { level: 2 });
  st = await playerToMove(phone.page, 0);
  for (let i = 0; i < 5; i++) {
    await playToken(phone.page, 'morris', engineAi('morris', st.record, { seed: i }));
    st = await playerToMove(phone.page, st.turns + 2);
  }
  await screenshot(phone.page, 'computer-morris-mid-phone');
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
  await phone.context.close();
});

/** Native speed: `engine ai --level 4` on a record, its nodes (or playouts) per second. */
function nativeRate(game, record, movetime) {
  const args = ['ai', game, '--level', '4', '--seed', '1', '--movetime', String(movetime),
    ...(game === 'morris' ? ['--max-turns', '100'] : [])];
  const r = spawnSync(ENGINE_BIN, args, { input: record });
  assert.equal(r.status, 0, String(r.stderr));
  const nodes = Number(String(r.stdout).match(/ nodes (\d+)/)[1]);
  const ms = Number(String(r.stderr).match(/time (\d+) ms/)[1]);
  return nodes / ms * 1000;
}

test('figures: the worker\'s size, and its search speed against native (« Fort », 1 s, client/worker/speed-positions.txt)', async () => {
  const { page, context, requests } = await open('/moulin/ordinateur');
  // Sizes, gzip -9 as the build's budgets: the worker's wasm, and what the page loaded first.
  const size = (url) => execFileSync('gzip', ['-9', '-c', path.join(STATIC_DIR, new URL(url, relay.url).pathname)]).length;
  const { worker, workerWasm } = await page.evaluate(() => document.body.dataset);
  const initial = [...new Set(requests)].filter((u) => /\/client-[0-9a-f]+(_bg\.wasm|\.js)$/.test(u));
  assert.equal(initial.length, 2, initial.join(' '));
  assert.ok(!requests.some((u) => /\/remote-[0-9a-f]+/.test(u)), 'no remote bundle on a computer page');
  const initialBytes = initial.reduce((n, u) => n + size(u), 0);
  console.log(`figure: initial wasm + JS ${initialBytes} B gzipped; the worker's wasm ${size(workerWasm)} B, its script ${size(worker)} B gzipped`);
  assert.ok(size(workerWasm) <= 120000, 'the worker\'s wasm within 120 KB gzipped');
  assert.ok(initialBytes <= 260000, 'the initial bundle within 260 KB gzipped');

  const positions = readFileSync(path.join(ROOT, 'client/worker/speed-positions.txt'), 'utf8')
    .split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split('|').map((s) => s.trim()));
  // The worker and `engine ai` take turns, run by run, so that both see the same machine load.
  const RUNS = 3;
  await page.evaluate(async () => {
    const { worker, workerWasm } = document.body.dataset;
    const module = await WebAssembly.compileStreaming(fetch(workerWasm));
    const w = new Worker(worker, { type: 'module' });
    w.postMessage({ module });
    window.speedWorker = w;
  });
  const workerRate = (game, record) => page.evaluate(([game, record]) => new Promise((resolve, reject) => {
    const w = window.speedWorker;
    w.onmessage = ({ data: r }) => (r.error ? reject(new Error(r.error)) : resolve(r.nodes / r.ms * 1000));
    w.postMessage({ token: 1, game, maxTurns: 100, record, pending: '', level: 4, seed: 1, movetime: 1000 });
  }), [game, record]);
  const ratios = [];
  for (const [game, record] of positions) {
    const wasm = [];
    const native = [];
    for (let i = 0; i < RUNS; i++) {
      wasm.push(await workerRate(game, record));
      native.push(nativeRate(game, record, 1000));
    }
    const [w, n] = [median(wasm), median(native)];
    const unit = game === 'morris' ? 'nodes' : 'playouts';
    ratios.push(w / n);
    console.log(`figure: ${game} ${String(record.split(' ').length).padStart(3)} turns: worker ${w.toFixed(0)} ${unit}/s, native \`engine ai\` ${n.toFixed(0)} ${unit}/s, wasm/native ${(w / n).toFixed(2)} (medians of ${RUNS})`);
    assert.ok(w > 0 && n > 0);
  }
  console.log(`figure: wasm over native, median of the positions: ${median(ratios).toFixed(2)}`);
  await context.close();
});
