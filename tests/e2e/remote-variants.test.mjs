// A remote Morris room under another rule set, end to end in two Chromium contexts: the host
// chooses « Gur 9 » and colours drawn by lot in the lobby; the link announces them and the guest
// sees them before any move; both pages say the draw (« Tirage au sort : vous jouez … »); a whole
// game is played under gur9 with both boards checked against `engine replay --rules gur9` after
// every turn, and the turns without a capture counted on both pages; the exported transcript
// passes `engine verify`, which recomputes the draw and names the rules; a rematch under Lasker,
// proposed by the host, is drawn again.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  relayAndBrowser, ENGINE_BIN, morrisClicks, boardString, screenshot, median,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const figures = { connect: [], latency: [] };
const ctx = {};
const { player, join, watchBoard, playTurn } = roomKit(ctx, figures);

relayAndBrowser(ctx);

after(() => {
  if (figures.latency.length) {
    console.log(`figure: remote gur9: move → opponent's board median ${median(figures.latency).toFixed(1)} ms over ${figures.latency.length} moves`);
  }
});

const GUR9 = 'pieces=9,diagonals=0,flying=1,lasker=0,quiet=50';
const LASKER = 'pieces=10,diagonals=0,flying=1,lasker=1,quiet=0';

const replay = (record, rules) => JSON.parse(execFileSync(ENGINE_BIN, ['replay', 'morris', '--rules', rules], { input: record }).toString());
const aiTurn = (record, rules, seed) => execFileSync(ENGINE_BIN, ['ai', 'morris', '--rules', rules, '--level', '1', '--seed', String(seed)],
  { input: record, stdio: ['pipe', 'pipe', 'ignore'] }).toString().trim().split('\n').pop();

/** A whole game under `rules`, both sides played by `engine ai --level 1`. */
function wholeGame(rules) {
  const tokens = [];
  for (let seed = 0; replay(tokens.join(' '), rules).phase !== 'over'; seed++) tokens.push(aiTurn(tokens.join(' '), rules, seed));
  return tokens;
}

/** Who plays Blue, as the draw's notice tells each page. */
async function drawn(page) {
  const notice = page.locator('.notice', { hasText: 'Tirage au sort : vous jouez' });
  await notice.waitFor({ timeout: 20000 });
  return (await notice.textContent()).includes('vous jouez Bleu') ? 0 : 1;
}

test('a gur9 room with colours by lot: announced, drawn on both sides, played whole, verified', async () => {
  const h = await player();
  const g = await player();
  await h.page.goto(`${ctx.relay.url}/moulin/distance`);
  await h.page.getByLabel('Règles du jeu').selectOption('gur9');
  await h.page.getByLabel('Tirées au sort à chaque partie').check();
  await h.page.getByRole('button', { name: 'Créer le salon' }).click();
  const link = await h.page.locator('[data-invite-link]').inputValue();
  assert.match(link, /&v=gur9&l=1$/);
  // The host's own page says the rules and colours in force.
  assert.equal(await h.page.locator('.rules-name[data-rules]').getAttribute('data-rules'), GUR9);
  assert.equal(await h.page.locator('.rules [data-colours]').getAttribute('data-colours'), 'lot');

  await join(g.page, h.page, link);
  // The guest sees them before any move.
  assert.equal(await g.page.locator('.rules-name[data-rules]').getAttribute('data-rules'), GUR9);
  assert.match(await g.page.locator('.rules-name').textContent(), /Gur 9 \(nul après 50 tours sans prise\)/);
  assert.equal(await g.page.locator('.rules [data-colours]').getAttribute('data-colours'), 'lot');
  const hostColour = await drawn(h.page);
  assert.equal(await drawn(g.page), 1 - hostColour, 'one Blue, one Red');
  await screenshot(g.page, 'remote-gur9-drawn-desktop');

  const pages = hostColour === 0 ? [h.page, g.page] : [g.page, h.page]; // Blue first
  await watchBoard(h.page);
  await watchBoard(g.page);
  const tokens = wholeGame(GUR9);
  for (const [i, token] of tokens.entries()) {
    const selectors = morrisClicks(token).map((p) => `[data-point="${p}"]`);
    await playTurn(pages[i % 2], pages[1 - (i % 2)], selectors, 'data-point', 24, 'BR');
    const expected = replay(tokens.slice(0, i + 1).join(' '), GUR9).board;
    for (const p of pages) assert.equal(await boardString(p, 'data-point', 24, 'BR'), expected, `turn ${i + 1}`);
    // How near the quiet draw is: the turns since the last capture.
    const quiet = i + 1 - (tokens.slice(0, i + 1).findLastIndex((t) => t.includes('x')) + 1);
    for (const p of pages) {
      await p.locator('.progress', { hasText: `Tours joués : ${i + 1} sur 100 · sans prise : ${quiet} sur 50` }).waitFor();
    }
  }
  const end = replay(tokens.join(' '), GUR9);
  assert.equal(end.phase, 'over');
  for (const p of pages) {
    await p.locator(`[data-status="${end.winner === null ? 'draw' : 'won'}"]`).waitFor();
  }

  // The exported transcript: verified, the draw recomputed, the rules named.
  await g.page.getByRole('button', { name: 'Exporter la partie' }).click();
  const href = await g.page.locator('[data-export="transcript"]').getAttribute('href');
  const transcript = decodeURIComponent(href.slice(href.indexOf(',') + 1));
  const verified = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: transcript }).toString());
  assert.equal(verified.board, end.board);
  assert.equal(verified.rules, GUR9);
  const game = verified.room.games[0];
  assert.deepEqual([game.host, game.colours, game.rules, game.turns], [hostColour, 'lot', GUR9, tokens.length]);
  assert.equal(verified.room.verdict, 'verified: every signature, link and move is valid');
  // The record names its rules and replays to the same end.
  const recordHref = await g.page.locator('[data-export="record"]').getAttribute('href');
  const record = decodeURIComponent(recordHref.slice(recordHref.indexOf(',') + 1));
  assert.match(record, new RegExp(`\\[Rules "${GUR9}"\\]`));
  assert.equal(JSON.parse(execFileSync(ENGINE_BIN, ['replay'], { input: record }).toString()).board, end.board);
  await g.page.getByRole('button', { name: 'Exporter la partie' }).click();

  // A rematch under Lasker, still by lot: the host's new-game dialog, accepted, drawn again.
  await h.page.getByRole('button', { name: 'Nouvelle partie' }).click();
  const dialog = h.page.getByRole('dialog');
  await dialog.getByLabel('Règles du jeu').selectOption('lasker');
  await dialog.getByRole('button', { name: 'Proposer' }).click();
  const asked = g.page.getByRole('alertdialog');
  await asked.getByText('Votre adversaire propose une nouvelle partie : Lasker (10 pions), 100 tours au plus, couleurs tirées au sort.').waitFor();
  await asked.getByRole('button', { name: 'Accepter' }).click();
  for (const p of [h.page, g.page]) {
    await p.locator(`.rules-name[data-rules="${LASKER}"]`).waitFor();
    await p.locator('main[data-game-number="1"]').waitFor();
  }
  const again = await drawn(h.page);
  assert.equal(await drawn(g.page), 1 - again);
  assert.deepEqual([...h.errors, ...g.errors], []);
  await h.context.close();
  await g.context.close();
});
