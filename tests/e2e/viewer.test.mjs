// History, browsing and the game viewer end to end, in headless Chromium: the history panel of
// whole hot-seat games of both games against `engine replay`; the last move on the board (Morris:
// origin, destination, captured point; Méta Morpion: the cell), in its marks and its labels;
// browsing by click and keys (read only: a click on a past position plays nothing; the turn shown
// scrolled into the list's view, the page not moved); a remote game browsed while the opponent
// plays, its transcript exported and verified in `/partie` like `engine verify` (given by the
// picker and by drag-and-drop) — and refused
// with one byte changed or two entries swapped, naming the same entry as `engine verify`; a
// record with an illegal move refused naming its token; a 10 MB junk file refused at once; and
// the figures: the viewer's verification of a 500-turn Morris transcript and of the largest an
// honest room writes, both chains full, without freezing the page (written by
// `cargo build --release -p engine --example long_transcript`; skipped when it is not built).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  relayAndBrowser, DESKTOP, screenshot, engineReplay, morrisClicks, cell, boardString,
  ENGINE_BIN, MORRIS_GAME, META_GAME, MORRIS_NAMES,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const LONG = process.env.LONG_TRANSCRIPT_BIN || path.join(path.dirname(ENGINE_BIN), 'examples', 'long_transcript');
const HOSTILE = process.env.HOSTILE_BIN || path.join(path.dirname(ENGINE_BIN), 'examples', 'hostile');
const ctx = {};
const { player, createRoom, join, watchBoard, clickAt, playTurn } = roomKit(ctx, { connect: [], latency: [] });

relayAndBrowser(ctx);


const READ_ONLY = 'Vous regardez une position passée : « Retour à la partie » pour jouer.';
// The turns of the history (`data-ply="0"` is its « Début », the start).
const TURNS = '[data-ply]:not([data-ply="0"])';
const historyTexts = (page) => page.locator(TURNS).allTextContents();

async function open(p) {
  const context = await ctx.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(ctx.relay.url + p);
  return { page, context, errors };
}

/** The viewer's verdict once it is given: { verified, text, ms }. */
async function verdict(page) {
  const v = page.locator('[data-verified]');
  await v.waitFor();
  return { verified: await v.getAttribute('data-verified'), text: await v.textContent(), ms: Number(await v.getAttribute('data-check-ms')) };
}

/** The last move's marks on the Morris board: { from, to, taken } point names (or null), each
 * mark counted once, and the labels of those points. */
async function morrisMarks(page) {
  return page.evaluate((names) => {
    const at = (sel) => [...document.querySelectorAll(sel)].map((m) => names[Number(m.closest('[data-point]').dataset.point)]);
    const one = (sel) => { const a = at(sel); if (a.length > 1) throw new Error(`${a.length} × ${sel}`); return a[0] ?? null; };
    const marks = { from: one('.from-mark'), to: one('.last-frame'), taken: one('.captured-mark') };
    const label = (name) => name && document.querySelector(`[data-point="${names.indexOf(name)}"]`).getAttribute('aria-label');
    return { ...marks, labels: { from: label(marks.from), to: label(marks.to), taken: label(marks.taken) } };
  }, MORRIS_NAMES);
}

/** Whether the history item `ply` is inside its list's visible part, and the page's scroll. */
function inListView(page, ply) {
  return page.evaluate((ply) => {
    const item = document.querySelector(`[data-ply="${ply}"]`);
    const list = item.closest('.turns-scroll');
    const [a, b] = [item.getBoundingClientRect(), list.getBoundingClientRect()];
    return { visible: a.top >= b.top - 1 && a.bottom <= b.bottom + 1, overflows: list.scrollHeight > list.clientHeight, pageY: window.scrollY };
  }, ply);
}

/** Gives the viewer a file through its picker. */
async function giveFile(page, name, text) {
  await page.locator('[data-file]').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
}

test('hot-seat: the history of whole games is engine replay\'s turn list; browse by click and keys, read-only; the viewer replays it', async () => {
  const { page, context, errors } = await open('/moulin');
  for (const token of MORRIS_GAME.split(' ')) {
    for (const p of morrisClicks(token)) await page.locator(`[data-point="${p}"]`).click();
  }
  await page.locator('[data-status="won"]').waitFor();
  const tokens = MORRIS_GAME.split(' ');
  assert.deepEqual(await historyTexts(page), tokens);
  assert.equal(engineReplay('morris', (await historyTexts(page)).join(' ')).board, await boardString(page, 'data-point', 24, 'BR'));
  // The last turn is the current one; the last move is on the board: d6-d5xf6, its origin, its
  // destination and the point it captured, each marked and said.
  assert.equal(await page.locator('[data-ply][aria-current]').getAttribute('data-ply'), String(tokens.length));
  assert.deepEqual(await morrisMarks(page), {
    from: 'd6', to: 'd5', taken: 'f6',
    labels: { from: 'd6 : vide, départ du dernier coup', to: 'd5 : pion bleu, dernier coup', taken: 'f6 : vide, pion capturé au dernier coup' },
  });

  // A click on turn 7 (c5xa4) shows the position after it, with its marks; then turn 5.
  await page.locator('[data-ply="7"]').click();
  await page.locator('[data-browsing="7"]').waitFor();
  assert.deepEqual(await morrisMarks(page), {
    from: null, to: 'c5', taken: 'a4',
    labels: { from: null, to: 'c5 : pion bleu, dernier coup', taken: 'a4 : vide, pion capturé au dernier coup' },
  });
  await page.locator('[data-ply="5"]').click();
  await page.locator('[data-browsing="5"]').waitFor();
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), engineReplay('morris', tokens.slice(0, 5).join(' ')).board);
  assert.equal((await morrisMarks(page)).to, tokens[4]);
  await screenshot(page, 'history-morris-browsing-desktop');
  // Keys outside the board: ← → Home End.
  await page.keyboard.press('ArrowLeft');
  await page.locator('[data-browsing="4"]').waitFor();
  assert.equal(await boardString(page, 'data-point', 24, 'BR'), engineReplay('morris', tokens.slice(0, 4).join(' ')).board);
  await page.keyboard.press('Home');
  await page.locator('[data-browsing="0"]').waitFor();
  assert.equal(await page.locator('[data-point][data-piece]').count(), 0);
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('ArrowRight');
    await page.locator(`[data-browsing="${i}"]`).waitFor();
  }
  // On a past position the board plays nothing.
  await page.locator('[data-point="0"]').click();
  await page.getByText(READ_ONLY).waitFor();
  assert.equal(await page.locator('main').getAttribute('data-turns'), String(tokens.length));
  await page.locator('h1').click(); // out of the board, whose arrows are its own
  await page.keyboard.press('End');
  await page.locator('[data-browsing]').waitFor({ state: 'detached' });
  assert.equal(engineReplay('morris', MORRIS_GAME).board, await boardString(page, 'data-point', 24, 'BR'));
  // The list scrolls from its end, live play's; Home brings « Début » into its view, and the
  // page does not move. End brings the last turn back.
  // Beside the board the list is as tall as the screen allows: on a short screen it scrolls.
  await page.setViewportSize({ width: 1280, height: 620 });
  await page.evaluate(() => { document.querySelector('.turns-scroll').scrollTop = 0; });
  const atEnd = await inListView(page, 0);
  assert.deepEqual([atEnd.overflows, atEnd.visible], [true, false], 'the start is out of the list\'s view');
  await page.keyboard.press('Home');
  await page.locator('[data-browsing="0"]').waitFor();
  await page.waitForFunction(() => {
    const [a, b] = [document.querySelector('[data-ply="0"]'), document.querySelector('.turns-scroll')].map((e) => e.getBoundingClientRect());
    return a.top >= b.top - 1;
  }, null, { timeout: 5000 });
  assert.deepEqual(await inListView(page, 0), { visible: true, overflows: true, pageY: atEnd.pageY });
  assert.equal((await inListView(page, tokens.length)).visible, false);
  await page.keyboard.press('End');
  await page.locator('[data-browsing]').waitFor({ state: 'detached' });
  await page.waitForFunction((n) => {
    const [a, b] = [document.querySelector(`[data-ply="${n}"]`), document.querySelector('.turns-scroll')].map((e) => e.getBoundingClientRect());
    return a.bottom <= b.bottom + 1;
  }, tokens.length, { timeout: 5000 });
  assert.deepEqual(await inListView(page, tokens.length), { visible: true, overflows: true, pageY: atEnd.pageY });
  await page.locator('[data-ply="2"]').click();
  await page.getByRole('button', { name: 'Retour à la partie' }).click();
  await page.locator('[data-browsing]').waitFor({ state: 'detached' });

  // The end of the game offers the next one in the result itself, and this one to pass on: its
  // link copied whole (the record in the fragment), the banner a result, not an alarm.
  assert.ok(await page.getByRole('button', { name: 'Rejouer' }).isVisible());
  assert.notEqual(await page.locator('[data-status="won"]').evaluate((e) => getComputedStyle(e).backgroundColor),
    await page.locator('[data-status="won"]').evaluate((e) => getComputedStyle(e).borderLeftColor));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ctx.relay.url });
  await page.getByRole('button', { name: 'Copier le lien de la partie' }).click();
  await page.locator('[data-copied="true"]', { hasText: 'Lien de la partie copié' }).waitFor();
  const href = await page.locator('[data-review]').getAttribute('href');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), ctx.relay.url + href);
  // The end of the game links to the viewer, with the record and its headers.
  await page.locator('[data-review]').click();
  await page.waitForURL(/\/partie#r=/);
  const v = await verdict(page);
  assert.equal(v.verified, 'true', v.text);
  assert.equal(await page.locator('main').getAttribute('data-turns'), String(tokens.length));
  assert.deepEqual(await historyTexts(page), tokens);
  await page.keyboard.press('Home');
  await page.locator('[data-ply-shown="0"]').waitFor();
  assert.equal(await page.locator('[data-point][data-piece]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();

  // Méta Morpion: the same list, and browsing by keys.
  const m = await open('/meta-morpion');
  for (const name of META_GAME.split(' ')) await m.page.locator(`[data-cell="${cell(name)}"]`).click();
  await m.page.locator('[data-status="won"]').waitFor();
  assert.deepEqual(await historyTexts(m.page), META_GAME.split(' '));
  // The last move, f4, framed and said; then, browsing, the shown position's last move.
  const metaTokens = META_GAME.split(' ');
  const framed = () => m.page.evaluate(() => [...document.querySelectorAll('[data-cell]')]
    .filter((c) => c.querySelector('.last-frame')).map((c) => [Number(c.dataset.cell), c.getAttribute('aria-label')]));
  const lastCell = (n) => cell(metaTokens[n - 1]);
  let marks = await framed();
  assert.deepEqual(marks.map(([c]) => c), [lastCell(metaTokens.length)]);
  assert.match(marks[0][1], /^f4 \(grille .* : .*, dernier coup$/);
  await m.page.locator('[data-ply="10"]').click();
  await m.page.keyboard.press('ArrowRight');
  await m.page.locator('[data-browsing="11"]').waitFor();
  assert.equal(await boardString(m.page, 'data-cell', 81, 'XO'), engineReplay('meta', META_GAME.split(' ').slice(0, 11).join(' ')).cells);
  marks = await framed();
  assert.deepEqual(marks.map(([c]) => c), [lastCell(11)]);
  assert.match(marks[0][1], new RegExp(`^${metaTokens[10]} \\(grille .* : .*, dernier coup$`));
  assert.deepEqual(m.errors, []);
  await m.context.close();
});

test('remote: browsing while the opponent plays; the exported transcript verifies in the viewer, and tampered copies are refused as engine verify refuses them', async () => {
  const h = await player();
  const g = await player();
  const { link } = await createRoom(h.page, 'morris');
  await join(g.page, h.page, link);
  await watchBoard(h.page);
  await watchBoard(g.page);
  const tokens = MORRIS_GAME.split(' ');
  const pages = [h.page, g.page];
  const sel = (t) => morrisClicks(t).map((p) => `[data-point="${p}"]`);
  for (let i = 0; i < 4; i++) await playTurn(pages[i % 2], pages[1 - i % 2], sel(tokens[i]), 'data-point', 24, 'BR');
  // The guest (Red) looks back at turn 2 while the host plays turn 5; the board stays where it
  // was (the banner comes under it), and the cards describe the position shown.
  const boardTop = () => g.page.evaluate(() => document.querySelector('main svg.board').getBoundingClientRect().top + scrollY);
  const live = await boardTop();
  await g.page.locator('[data-ply="2"]').click();
  await g.page.locator('[data-browsing="2"]').waitFor();
  assert.equal(await boardTop(), live, 'the board does not jump');
  assert.match(await g.page.locator('[data-player="1"]').textContent(), /8 jetons restants/);
  await h.page.locator('main[data-my-turn="true"]').waitFor();
  for (const s of sel(tokens[4])) await clickAt(h.page, s);
  await g.page.getByText('Votre adversaire a joué pendant que vous regardiez l\'historique').waitFor();
  assert.equal(await boardString(g.page, 'data-point', 24, 'BR'), engineReplay('morris', tokens.slice(0, 2).join(' ')).board);
  assert.equal(await g.page.locator(TURNS).count(), 5);
  await screenshot(g.page, 'history-remote-browsing-desktop');
  await g.page.getByRole('button', { name: 'Retour à la partie' }).click();
  assert.equal(await boardString(g.page, 'data-point', 24, 'BR'), engineReplay('morris', tokens.slice(0, 5).join(' ')).board);
  await playTurn(g.page, h.page, sel(tokens[5]), 'data-point', 24, 'BR');
  assert.deepEqual(await historyTexts(h.page), tokens.slice(0, 6));

  await g.page.getByRole('button', { name: 'Exporter la partie' }).click();
  const download = async (kind) => {
    const href = await g.page.locator(`[data-export="${kind}"]`).getAttribute('href');
    return decodeURIComponent(href.slice(href.indexOf(',') + 1));
  };
  const transcript = await download('transcript');
  const record = await download('record');
  assert.match(record, /^\[Game "morris"\]\n\[MaxTurns "100"\]\n\[Blue "hôte"\]\n\[Red "invité"\]\n\[Date "\d{4}-\d\d-\d\d"\]\n\[Result "\*"\]\n/);
  assert.equal(JSON.parse(execFileSync(ENGINE_BIN, ['replay'], { input: record }).toString()).turns, 6);
  // Each room page shows both keys by the fingerprints the viewer and `engine verify` show.
  const keysOf = async (page) => Object.fromEntries(await Promise.all(['host', 'guest'].map(async (seat) =>
    [seat, await page.locator(`[data-key="${seat}"]`).textContent()])));
  const guestKeys = await keysOf(g.page);
  assert.match(guestKeys.host, /^Hôte : clé [0-9a-f]{16}$/);
  assert.match(guestKeys.guest, /^Invité : clé [0-9a-f]{16} \(vous\)$/);
  const hostKeys = await keysOf(h.page);
  assert.equal(hostKeys.host, `${guestKeys.host} (vous)`);
  assert.equal(`${hostKeys.guest} (vous)`, guestKeys.guest);

  // The viewer, from the export panel's link.
  await g.page.locator('[data-viewer-link]').click();
  await g.page.waitForURL(/\/partie$/);
  await giveFile(g.page, 'moulin.transcript', transcript);
  let v = await verdict(g.page);
  assert.equal(v.verified, 'true', v.text);
  assert.equal(v.text, 'Transcript vérifié : chaque signature, chaque lien et chaque coup sont valides.');
  assert.deepEqual(await historyTexts(g.page), tokens.slice(0, 6));
  const facts = await g.page.locator('.facts').textContent();
  const story = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: transcript }).toString()).room;
  assert.ok(facts.includes(story.host.fingerprint) && facts.includes(story.guest.fingerprint), facts);
  assert.ok(guestKeys.host.endsWith(story.host.fingerprint) && guestKeys.guest.includes(story.guest.fingerprint));
  // The page's own words for its controls: the browser's file button (in the browser's
  // language) is not what the player reads.
  const shown = await g.page.locator('main').innerText();
  assert.ok(!/Choose File|No file chosen/.test(shown), shown);
  assert.ok(await g.page.locator('label.file-button', { hasText: 'Choisir un fichier' }).isVisible());
  assert.match(await g.page.locator('.room-games').textContent(), /Partie 1 : l'hôte joue bleu, l'invité rouge — en cours, 6 tours\./);
  await screenshot(g.page, 'viewer-transcript-desktop');

  // Dropped on the page, the same file: the zone shows it is a target while it is dragged over,
  // and the drop is the page's (the browser does not open the file).
  await giveFile(g.page, 'junk.txt', 'not a game');
  await g.page.locator('[data-verified="false"]').waitFor();
  await g.page.evaluate((text) => {
    window.testDrop = new DataTransfer();
    window.testDrop.items.add(new File([text], 'dropped.transcript', { type: 'text/plain' }));
    document.querySelector('.drop').dispatchEvent(new DragEvent('dragover', { dataTransfer: window.testDrop, bubbles: true, cancelable: true }));
  }, transcript);
  await g.page.locator('.drop.over').waitFor();
  const taken = await g.page.evaluate(() => !document.querySelector('.drop p')
    .dispatchEvent(new DragEvent('drop', { dataTransfer: window.testDrop, bubbles: true, cancelable: true })));
  assert.ok(taken, 'the page cancels the drop');
  await g.page.locator('.hint:has-text("Fichier : dropped.transcript")').waitFor();
  v = await verdict(g.page);
  assert.equal(v.verified, 'true', v.text);
  assert.equal(await g.page.locator('.drop.over').count(), 0);
  assert.deepEqual(await historyTexts(g.page), tokens.slice(0, 6));

  // Tampered copies: refused naming the entry `engine verify` names (from 1, as people count;
  // the command line's index is from 0), in French words only.
  const lines = transcript.split('\n');
  const flip = [...lines];
  flip[9] = flip[9].slice(0, 40) + (flip[9][40] === '0' ? '1' : '0') + flip[9].slice(41);
  const swap = [...lines];
  [swap[7], swap[8]] = [swap[8], swap[7]];
  for (const [name, bad] of [['flip', flip.join('\n')], ['swap', swap.join('\n')]]) {
    const cli = spawnSync(ENGINE_BIN, ['verify'], { input: bad });
    assert.equal(cli.status, 1, name);
    const { entry } = JSON.parse(cli.stdout.toString());
    await giveFile(g.page, `${name}.transcript`, bad);
    await g.page.locator(`[data-verified="false"]:has-text("l'entrée n° ${entry + 1} (ligne ${entry + 5} du fichier)")`).waitFor();
    assert.ok(entry >= 3, `${name}: ${entry}`);
    const said = (await verdict(g.page)).text;
    assert.ok(!said.includes(JSON.parse(cli.stdout.toString()).message), said);
  }

  // A record with an illegal move: its turn and token, as engine replay (whose index is from 0).
  const illegal = '[Game "morris"]\nd6 b4 d6 a1\n';
  const cli = spawnSync(ENGINE_BIN, ['replay'], { input: illegal });
  const { index, token } = JSON.parse(cli.stdout.toString());
  await g.page.locator('[data-paste]').fill(illegal);
  await g.page.getByRole('button', { name: 'Ouvrir le texte collé' }).click();
  v = await verdict(g.page);
  assert.equal(v.verified, 'false');
  assert.ok(v.text.includes(`le tour n° ${index + 1}, « ${token} »`), v.text);
  assert.equal(await g.page.locator(TURNS).count(), 0);

  // 10 MB of junk: refused before reading, at once.
  const t0 = Date.now();
  await giveFile(g.page, 'junk.bin', Buffer.alloc(10_000_000, 7));
  await g.page.locator('[data-verified="false"]:has-text("Fichier refusé : 10,0 Mo, c\'est plus que les 9 Mo")').waitFor({ timeout: 3000 });
  const junkMs = Date.now() - t0;
  console.log(`# viewer: 10 MB junk file refused in ${junkMs} ms (picker to verdict)`);
  // 5 MB that are not text (the browser decodes them to 9 MB of replacement characters): said
  // so, with the file's own size never misread.
  await giveFile(g.page, 'photo.jpg', Buffer.alloc(5_000_000, 0xff));
  await g.page.locator('[data-verified="false"]:has-text("Fichier refusé : ce n\'est pas du texte")').waitFor();
  assert.deepEqual(h.errors, []);
  assert.deepEqual(g.errors, []);
  await h.context.close();
  await g.context.close();
});

/** Gives the viewer a file built in the page, so that handing the bytes over is not timed. A 10 ms
 * timer runs meanwhile: how often it ran while the check was under way (`window.testTicks`: each
 * time, the page had given the browser back its turn) and the longest the page stayed busy (the largest
 * gap between two runs, a figure). */
async function giveFileTimed(page, name, text) {
  await page.evaluate((t) => { window.testText = t; }, text);
  await page.evaluate((name) => {
    window.testGap = 0;
    window.testTicks = 0;
    let last = performance.now();
    window.testProbe = setInterval(() => {
      if (document.querySelector('[data-checking]')) window.testTicks += 1;
      const now = performance.now();
      window.testGap = Math.max(window.testGap, now - last);
      last = now;
    }, 10);
    const files = new DataTransfer();
    files.items.add(new File([window.testText], name, { type: 'text/plain' }));
    const input = document.querySelector('[data-file]');
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, name);
}

test('the viewer verifies a 500-turn Morris transcript and a full room in the page without freezing it (figures)', async (t) => {
  if (!existsSync(LONG)) {
    t.skip(`${LONG} is not built: cargo build --release -p engine --example long_transcript`);
    return;
  }
  const transcript = execFileSync(LONG, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const cli = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: transcript }).toString());
  assert.equal(cli.turns, 500);
  const { page, context, errors } = await open('/partie');
  const times = [];
  for (let i = 0; i < 3; i++) {
    await giveFile(page, `long-${i}.transcript`, transcript);
    await page.locator(`.hint:has-text("long-${i}.transcript")`).waitFor();
    const v = await verdict(page);
    assert.equal(v.verified, 'true', v.text);
    times.push(v.ms);
  }
  assert.equal(await page.locator(TURNS).count(), 500);
  console.log(`# viewer: 500-turn Morris transcript (${transcript.length} B, ${transcript.split('\n').length - 5} entries) verified in the page in ${times.map((x) => x.toFixed(0)).join(', ')} ms`);

  // The largest transcript an honest room writes: both chains full (10 000 entries each), some
  // forty 500-turn games. The page says how far the check is and stays responsive throughout.
  const full = execFileSync(LONG, ['--full'], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 16e6 }).toString();
  const entries = full.split('\n').length - 5;
  assert.ok(entries >= 19_990, `${entries} entries`);
  await giveFileTimed(page, 'full.transcript', full);
  const checking = page.locator('[data-checking]');
  await checking.waitFor();
  assert.equal(await checking.textContent(), 'Vérification du transcript…');
  const v = await verdict(page);
  assert.equal(v.verified, 'true', v.text);
  await checking.waitFor({ state: 'detached' });
  const [gap, ticks] = await page.evaluate(() => { clearInterval(window.testProbe); return [window.testGap, window.testTicks]; });
  console.log(`# viewer: a full room (${full.length} B, ${entries} entries) verified in the page in ${v.ms.toFixed(0)} ms, the page never busy for more than ${gap.toFixed(0)} ms at a time`);
  // Checked at once it kept the page busy for its whole duration (4 MB: 3.3 to 4.7 s), the timer
  // never running meanwhile; in slices (each at most SLICE_MS of the page's clock, counted by
  // the model's unit tests) the browser had its turn between them, again and again.
  assert.ok(ticks >= 10, `the page gave the browser its turn ${ticks} times in ${v.ms} ms`);
  assert.equal(await page.locator('.room-games li').count(), 40);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the viewer verifies hostile transcripts in the time of honest ones (figures)', async (t) => {
  // docs/protocol.md, « Costs »: every entry void, every entry crossing every other — a few MB
  // each, which kept `engine verify` busy for minutes before issue #21.
  if (!existsSync(HOSTILE)) {
    t.skip(`${HOSTILE} is not built: cargo build --release -p engine --example hostile`);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hostile-'));
  try {
    execFileSync(HOSTILE, ['files', dir, '--mb', '6'], { stdio: 'ignore' });
    const { page, context, errors } = await open('/partie');
    for (const name of ['void', 'cross']) {
      const text = readFileSync(path.join(dir, `${name}.transcript`), 'utf8');
      const cli = spawnSync(ENGINE_BIN, ['verify'], { input: text, maxBuffer: 64e6 });
      assert.equal(cli.status, 0, cli.stdout.toString().slice(0, 300));
      await giveFileTimed(page, `${name}.transcript`, text);
      // Authentic, and the faults named, as `engine verify` names them.
      const v = await verdict(page);
      assert.match(v.text, /^Transcript authentique, mais /, v.text);
      await page.locator('[data-checking]').waitFor({ state: 'detached' });
      const [gap, ticks] = await page.evaluate(() => { clearInterval(window.testProbe); return [window.testGap, window.testTicks]; });
      console.log(`# viewer: hostile ${name} transcript (${text.length} B) verified in the page in ${v.ms.toFixed(0)} ms, the page never busy for more than ${gap.toFixed(0)} ms at a time`);
      assert.ok(ticks >= 10, `the page gave the browser its turn ${ticks} times in ${v.ms} ms`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
