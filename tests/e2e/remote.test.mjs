// Remote play end to end: two separate browser contexts in headless Chromium meet through the
// relay and play over a real WebRTC data channel. Complete Morris and Méta Morpion games through
// an invite link, a reload during a pending capture, undo declined then accepted, a rematch
// that alternates the first player, the exported transcript checked by `engine verify`, a join
// by short code, a relay restart mid-game, a copied tab refused by the relay and a fork caught by
// the sessions, the error pages (malformed link, other game, full room, expired room), no hint
// button, screenshots, and the
// figures: navigation → data channel open, and move → opponent's board updated.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  relayAndBrowser, startRelay, DESKTOP, PHONE, screenshot, engineReplay, morrisClicks, cell,
  boardString, median, ENGINE_BIN, MORRIS_GAME, META_GAME,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const figures = { connect: [], latency: [] };
const ctx = {};
const { player, createRoom, join, watchBoard, clickAt, playTurn } = roomKit(ctx, figures);

relayAndBrowser(ctx);

after(() => {
  if (figures.connect.length) {
    console.log(`# remote: navigation → data channel open, ms: ${figures.connect.map((x) => x.toFixed(0)).join(', ')} (median ${median(figures.connect).toFixed(0)})`);
  }
  if (figures.latency.length) {
    console.log(`# remote: move → opponent's board updated, median ${median(figures.latency).toFixed(1)} ms over ${figures.latency.length} moves (max ${Math.max(...figures.latency).toFixed(1)})`);
  }
});

const morrisSelectors = (token) => morrisClicks(token).map((p) => `[data-point="${p}"]`);

test('a complete Morris game through an invite link: reload, undo declined and accepted, export, rematch', async () => {
  const h = await player();
  const g = await player();
  const host = h.page;
  const guest = g.page;
  await host.goto(`${ctx.relay.url}/moulin/distance`);
  await host.getByRole('button', { name: 'Créer le salon' }).waitFor();
  await screenshot(host, 'remote-lobby-desktop');
  const { link, code } = await createRoom(host, 'morris');
  assert.match(link, /\/moulin\/salon#g=morris&t=100&r=[0-9a-f]{32}&k=[0-9a-f]{64}&s=[0-9a-f]{32}$/);
  assert.match(code, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  await host.locator('[data-presence="waiting"]').waitFor();
  await screenshot(host, 'remote-morris-waiting-desktop');

  await join(guest, host, link);
  assert.equal(await guest.locator('main').getAttribute('data-seat'), 'guest');
  // Never a hint in a remote game (nor the computer's worker).
  for (const p of [host, guest]) {
    assert.equal(await p.getByRole('button', { name: 'Suggérer un coup' }).count(), 0);
  }
  await host.waitForFunction(() => document.title.startsWith('À vous · '));
  assert.equal(await guest.title(), 'Jeu du moulin — à distance');
  await watchBoard(host);
  await watchBoard(guest);
  const tokens = MORRIS_GAME.split(' ');
  const pages = [host, guest]; // Blue is the host in the first game.
  const turn = async (i) => {
    const mover = pages[i % 2];
    await playTurn(mover, pages[1 - i % 2], morrisSelectors(tokens[i]), 'data-point', 24, 'BR');
  };
  for (let i = 0; i < 4; i++) await turn(i);

  // Undo declined: Blue asks, Red refuses; then Red asks for its own last turn and Blue accepts.
  await host.getByRole('button', { name: 'Annuler le coup' }).click();
  await host.locator('[data-proposal="mine"]').waitFor();
  const asked = guest.getByRole('alertdialog');
  await asked.getByText(`Votre adversaire demande à annuler le dernier tour, ${tokens[3]}.`).waitFor();
  assert.match(await asked.locator('.countdown').textContent(), /Réponse attendue dans (1:00|0:5[0-9])\./);
  await screenshot(guest, 'remote-morris-undo-request-desktop');
  await asked.getByRole('button', { name: 'Refuser' }).click();
  await host.getByText('Votre adversaire a refusé : annuler le dernier tour.').waitFor();
  assert.equal(await host.locator('[data-point] [data-piece], [data-point][data-piece]').count(), 4);
  await guest.getByRole('button', { name: 'Annuler le coup' }).click();
  // The request takes the keyboard focus and the tab's title: Enter accepts.
  await host.getByRole('alertdialog').waitFor();
  await host.waitForFunction(() => document.activeElement?.textContent === 'Accepter');
  assert.match(await host.title(), /^Demande de votre adversaire · Jeu du moulin/);
  await host.keyboard.press('Enter');
  await guest.getByText('Votre adversaire a accepté : annuler le dernier tour.').waitFor();
  await guest.locator('main[data-my-turn="true"]').waitFor();
  assert.equal(await guest.locator('[data-point][data-piece]').count(), 3);
  await host.waitForFunction(() => document.querySelectorAll('[data-point][data-piece]').length === 3);
  await turn(3); // Red plays g7 again.
  for (let i = 4; i < 6; i++) await turn(i);

  // Blue forms a mill (c5), then reloads with the capture pending: the tab rejoins its seat.
  await host.locator('main[data-my-turn="true"]').waitFor();
  await clickAt(host, morrisSelectors('c5')[0]);
  await host.getByText('Vous avez formé un moulin').waitFor();
  await guest.waitForFunction(() => document.querySelectorAll('[data-point][data-piece]').length === 7);
  await host.reload();
  await host.getByText('Vous avez formé un moulin').waitFor();
  await host.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await watchBoard(host);
  await screenshot(host, 'remote-morris-reloaded-capture-desktop');
  await playTurn(host, guest, [`[data-point="${morrisClicks('c5xa4')[1]}"]`], 'data-point', 24, 'BR');
  for (let i = 7; i < tokens.length; i++) await turn(i);

  for (const p of pages) {
    await p.locator('[data-status="won"]').waitFor();
    assert.equal(await p.locator('[data-status]').getAttribute('data-winner'), '0');
  }
  assert.match(await host.locator('[data-status]').textContent(), /Bleu gagne : Rouge n'a plus assez de pions/);
  const expected = engineReplay('morris', MORRIS_GAME);
  assert.equal(await boardString(guest, 'data-point', 24, 'BR'), expected.board);
  await screenshot(guest, 'remote-morris-end-desktop');

  // Export: the signed transcript verifies, the record replays to the same game.
  await guest.getByRole('button', { name: 'Exporter la partie' }).click();
  const download = async (kind) => {
    const href = await guest.locator(`[data-export="${kind}"]`).getAttribute('href');
    return decodeURIComponent(href.slice(href.indexOf(',') + 1));
  };
  const transcript = await download('transcript');
  const { room: story, ...verified } = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: transcript }).toString());
  assert.deepEqual(verified, expected);
  // The room's story: Blue (the host) won game 0 on pieces, nobody broke the rules.
  assert.deepEqual(story.games, [{ number: 0, host: 0, guest: 1, result: 'won', winner: 0, reason: 'pieces', turns: expected.turns }]);
  assert.deepEqual(story.faults, []);
  assert.match(story.verdict, /^verified/);
  // The record says what it is (headers), then the moves.
  const record = await download('record');
  assert.match(record, /^\[Game "morris"\]\n\[MaxTurns "100"\]\n\[Blue "hôte"\]\n\[Red "invité"\]\n\[Date "[0-9-]{10}"\]\n\[Result "1-0"\]\n\[Reason "pieces"\]\n/);
  assert.equal(record.replace(/^\[.*\]\n/gm, '').trim(), MORRIS_GAME);
  assert.deepEqual(JSON.parse(execFileSync(ENGINE_BIN, ['replay'], { input: record }).toString()), expected);
  // One flipped character is caught.
  const bad = transcript.replace(/\n([0-9a-f]{20})([0-9a-f])/, (_, a, b) => `\n${a}${b === '0' ? '1' : '0'}`);
  assert.throws(() => execFileSync(ENGINE_BIN, ['verify'], { input: bad, stdio: 'pipe' }));
  // The finished game's link to the viewer carries that very record, to pass on.
  const review = await guest.locator('[data-review]').getAttribute('href');
  assert.ok(review.startsWith('/partie#r='), review);
  assert.equal(decodeURIComponent(review.slice('/partie#r='.length)), record);
  assert.equal(await guest.getByRole('button', { name: 'Copier le lien de la partie' }).count(), 1);

  // Rematch, from the result itself: the guest now opens as Blue.
  await host.getByRole('button', { name: 'Revanche' }).click();
  await host.getByRole('dialog').getByRole('button', { name: 'Proposer' }).click();
  await guest.getByRole('alertdialog').getByText('Votre adversaire propose une nouvelle partie.').waitFor();
  await screenshot(guest, 'remote-morris-rematch-request-desktop');
  await guest.getByRole('alertdialog').getByRole('button', { name: 'Accepter' }).click();
  await guest.locator('main[data-game-number="1"][data-my-turn="true"]').waitFor();
  assert.match(await guest.locator('[data-status]').textContent(), /À vous \(Bleu\)/);
  await host.locator('main[data-game-number="1"][data-my-turn="false"]').waitFor();
  assert.equal(await host.locator('[data-point][data-piece]').count(), 0);

  // Leaving: the other side is told, and a reload of the leaver does not rejoin.
  await guest.getByRole('button', { name: 'Quitter le salon' }).click();
  await guest.getByRole('dialog').getByRole('button', { name: 'Quitter le salon' }).click();
  await guest.locator('[data-presence="left"]').waitFor();
  await host.getByText('Votre adversaire a quitté le salon.').waitFor();
  assert.match(await host.locator('[data-status]').textContent(), /Rouge \(vous\) gagne : Bleu a quitté le salon/);
  // The reloaded host may ask the relay about the room before the relay has noticed its old
  // socket close: the answer is a 409 (« two in the room »), which the browser itself logs, and
  // the page tries again (the room test below checks the full room's own page).
  const racedReload = /Failed to load resource: the server responded with a status of 409/;
  assert.deepEqual(h.errors.filter((e) => !racedReload.test(e)), []);
  assert.deepEqual(g.errors, []);
  await h.context.close();
  await g.context.close();
});

test('a complete Méta Morpion game through an invite link, on a phone and a desktop', async () => {
  const h = await player();
  const g = await player(PHONE);
  const host = h.page;
  const guest = g.page;
  const { link } = await createRoom(host, 'meta');
  assert.match(link, /\/meta-morpion\/salon#g=meta&/);
  await join(guest, host, link);
  await watchBoard(host);
  await watchBoard(guest);
  const names = META_GAME.split(' ');
  for (let i = 0; i < names.length; i++) {
    const [mover, other] = i % 2 ? [guest, host] : [host, guest];
    await playTurn(mover, other, [`[data-cell="${cell(names[i])}"]`], 'data-cell', 81, 'XO');
    if (i === 20) {
      await screenshot(guest, 'remote-meta-mid-phone');
      // The relay restarts mid-game. The data channel may survive it (play goes on) or drop
      // with it (both sides see the other away, replace their sockets and meet again): either
      // way the game goes on from where it was.
      const addr = new URL(ctx.relay.url).host;
      await ctx.relay.stop();
      await new Promise((r) => setTimeout(r, 3000));
      const during = await Promise.all([host, guest].map((p) => p.locator('[data-presence]').getAttribute('data-presence')));
      console.log(`# remote: presence during the relay outage: host ${during[0]}, guest ${during[1]}`);
      ctx.relay = await startRelay([], addr);
      for (const p of [host, guest]) await p.locator('[data-presence="here"]').waitFor({ timeout: 40000 });
    }
  }
  const expected = engineReplay('meta', META_GAME);
  for (const p of [host, guest]) {
    await p.locator('[data-status="won"]').waitFor();
    assert.equal(await p.locator('[data-status]').getAttribute('data-winner'), '1');
    assert.equal(await boardString(p, 'data-cell', 81, 'XO'), expected.cells);
  }
  await screenshot(host, 'remote-meta-end-desktop');
  // A resignation in the rematch, proposed by the guest this time.
  await guest.getByRole('button', { name: 'Nouvelle partie' }).click();
  await guest.getByRole('dialog').getByRole('button', { name: 'Proposer' }).click();
  await host.getByRole('alertdialog').getByRole('button', { name: 'Accepter' }).click();
  await guest.locator('main[data-game-number="1"][data-my-turn="true"]').waitFor();
  // A draw offer, withdrawn before the answer.
  await host.getByRole('button', { name: 'Proposer la nulle' }).click();
  await guest.getByRole('alertdialog').getByText('Votre adversaire propose la partie nulle.').waitFor();
  await host.getByRole('button', { name: 'Retirer la demande' }).click();
  await host.getByText('Demande retirée.').waitFor();
  await guest.getByRole('alertdialog').waitFor({ state: 'detached' });
  await host.getByRole('button', { name: 'Abandonner' }).click();
  await host.getByRole('dialog').getByRole('button', { name: 'Abandonner' }).click();
  await guest.locator('[data-status="won"][data-winner="0"]').waitFor();
  assert.match(await guest.locator('[data-status]').textContent(), /Bleu \(vous\) gagne : Rouge abandonne/);
  // While the relay was down, the page's questions to it were refused: the browser logs them.
  const refused = /Failed to load resource: net::ERR_CONNECTION_REFUSED|WebSocket/;
  assert.deepEqual(g.errors.filter((e) => !refused.test(e)), []);
  // The guest closes its tab: the host sees it away, with the seat's countdown.
  await g.context.close();
  await host.locator('[data-presence="away"]').waitFor({ timeout: 20000 });
  assert.match(await host.locator('[data-presence]').textContent(), /sa place est gardée encore (5:00|4:[45]\d)\./);
  await screenshot(host, 'remote-meta-away-desktop');
  assert.deepEqual(h.errors.filter((e) => !refused.test(e)), []);
  await h.context.close();
});

test('join by code; malformed link, other game and full room get clear messages', async () => {
  const h = await player();
  const g = await player();
  const third = await player();
  const { link, code } = await createRoom(h.page, 'meta');

  // A bad code is refused in the lobby; the right one, typed loosely, joins.
  const loaded = [];
  g.page.on('request', (r) => loaded.push(new URL(r.url()).pathname));
  await g.page.goto(`${ctx.relay.url}/meta-morpion/distance`);
  const field = g.page.getByLabel('Code du salon');
  await field.fill('ABCD-EFGH');
  await g.page.getByRole('button', { name: 'Rejoindre' }).click();
  await g.page.getByText("Ce code n'est pas valable").waitFor();
  await field.fill(code.toLowerCase().replaceAll('-', ' '));
  await g.page.getByRole('button', { name: 'Rejoindre' }).click();
  await g.page.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await h.page.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await watchBoard(h.page);
  await watchBoard(g.page);
  await playTurn(h.page, g.page, ['[data-cell="40"]'], 'data-cell', 81, 'XO');
  // The lobby is in the `client` bundle, the room loads the `remote` one (docs/architecture.md,
  // « Two bundles »), each once.
  const bundles = loaded.filter((p) => /^\/(client|remote|worker)-[0-9a-f]{16}/.test(p)).map((p) => p.slice(1, 7)).sort();
  assert.deepEqual(bundles, ['client', 'client', 'remote', 'remote'], loaded.join(' '));

  // A copy of the guest's tab (same keys) cannot take the seat while the guest is there: the
  // relay says the room is full, and the copy, which holds a seat and a game, keeps its board
  // and says so while it tries again.
  // The seat is saved in parts (docs/protocol.md, « Costs »): a head under the room's key, and
  // the entries in chunks under `<key>#<n>`; a copy takes them all.
  const saved = await g.page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('meta-morpion-seat-v2:')));
  const head = saved.find(([k]) => !k.includes('#'));
  assert.ok(head && /^\d+ parts:[0-9a-f]+$/.test(head[1]), 'the seat is kept in the browser, under the room');
  assert.ok(saved.some(([k, v]) => k === `${head[0]}#0` && /^([0-9a-f]+\n)+$/.test(v)), 'with its entries in chunks');
  const keep = (all) => { for (const [k, v] of all) localStorage.setItem(k, v); };
  const copy = await player();
  await copy.page.goto(`${ctx.relay.url}/`);
  await copy.page.evaluate(keep, saved);
  await copy.page.goto(g.page.url());
  await copy.page.locator('[data-relay]', { hasText: 'Le relais compte déjà deux connexions dans ce salon' }).waitFor({ timeout: 20000 });
  assert.match(await copy.page.locator('[data-relay]').textContent(), /Nouvelle tentative dans \d+ s\.$/);
  assert.equal(await copy.page.locator('[data-room-full]').count(), 0);
  assert.equal(await copy.page.locator('[data-cell="40"][data-piece="0"]').count(), 1, 'its game stays on screen');
  await copy.context.close();

  // A third visitor with the full link: the room is full.
  await third.page.goto(link);
  await third.page.locator('main[data-room-full]').getByRole('heading', { name: 'Salon complet' }).waitFor({ timeout: 20000 });
  await screenshot(third.page, 'remote-room-full-desktop');
  // That page tries again now and then (a seat may free up): it leaves, or it could take the
  // guest's place at the relay below, before the copy does.
  await third.page.goto('about:blank');

  // Another copy, kept off the network (its requests to the relay are held), writes
  // for the guest's seat — it resigns — while the real guest plays its move. When the guest has
  // gone and the copy reaches the host, both sessions find two signed entries with one number:
  // a fork, proved by signatures: the game counts against the guest's seat (protocol v3: a fork
  // never freezes the room), and the copy's tab is suspended.
  // No service worker: the requests it would send for the page escape `page.route`.
  const forked = await player(DESKTOP, { serviceWorkers: 'block' });
  let release;
  const held = new Promise((r) => { release = r; });
  let probe; // the room's address at the relay, as the copy asks it
  for (const url of ['**/ice-servers', '**/ws/*']) {
    await forked.page.route(url, async (route) => {
      if (url.endsWith('ws/*')) probe ??= route.request().url();
      await held;
      await route.continue();
    });
  }
  await forked.page.goto(`${ctx.relay.url}/`);
  await forked.page.evaluate(keep, saved);
  await forked.page.goto(g.page.url());
  await forked.page.locator('[data-cell="40"][data-piece]').waitFor();
  await forked.page.getByRole('button', { name: 'Abandonner' }).click();
  await forked.page.getByRole('dialog').getByRole('button', { name: 'Abandonner' }).click();
  await forked.page.locator('[data-status="won"][data-winner="0"]').waitFor();
  await playTurn(g.page, h.page, [`[data-cell="${cell('d5')}"]`], 'data-cell', 81, 'XO');
  await g.context.close();
  await h.page.locator('[data-presence="away"]').waitFor({ timeout: 20000 });
  // The host may see the guest go (its data channel closes) a moment before the relay does: the
  // copy is let through once the relay has room for it, or its first questions would be answered
  // « full » and its next try wait longer than this test does.
  assert.ok(probe, 'the copy asked the relay about its room');
  for (let t = Date.now(); (await fetch(probe)).status === 409; ) {
    assert.ok(Date.now() - t < 10000, 'the relay still counts the closed guest after 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  release();
  const says = async (page, text) => {
    try {
      await page.getByText(text).first().waitFor({ timeout: 20000 });
    } catch (e) {
      const said = await page.locator('main').innerText();
      throw new Error(`${e.message}\nthe page said instead:\n${said}`);
    }
  };
  await says(h.page, 'Bleu (vous) gagne : Rouge a joué depuis deux onglets à la fois (deux entrées signées sous un même numéro).');
  await says(forked.page, 'Votre place est utilisée dans un autre onglet : la partie est suspendue.');
  assert.equal(await h.page.locator('[data-status="won"][data-winner="0"]').count(), 1, 'the fork counts against the guest');
  assert.equal(await h.page.getByRole('button', { name: 'Revanche' }).count(), 1, 'the host can play on');
  await screenshot(h.page, 'remote-fork-desktop');
  await forked.context.close();


  // The same link on the other game's page, and a damaged link.
  const wrong = link.replace('/meta-morpion/salon', '/moulin/salon');
  await third.page.goto(wrong);
  await third.page.getByRole('heading', { name: "Ce lien est pour l'autre jeu" }).waitFor();
  await screenshot(third.page, 'remote-other-game-desktop');
  await third.page.goto(link.replace(/&k=[0-9a-f]+/, '&k=zz'));
  await third.page.getByRole('heading', { name: "Lien d'invitation non valable" }).waitFor();
  await third.page.goto(`${ctx.relay.url}/moulin/salon`);
  await third.page.getByRole('heading', { name: "Lien d'invitation non valable" }).waitFor();
  // A link to a room nobody hosts any more: after 30 s alone the page says so (and waits on).
  await third.page.goto(link.replace(/r=[0-9a-f]{32}/, `r=${'5'.repeat(32)}`));
  await third.page.locator('[data-presence="waiting"]').waitFor();
  await third.page.getByText("Personne n'a ouvert ce salon depuis 30 secondes").waitFor({ timeout: 45000 });
  await screenshot(third.page, 'remote-room-expired-desktop');
  // Leaving such a room needs no one's answer.
  await third.page.getByRole('button', { name: 'Quitter le salon' }).click();
  await third.page.getByRole('dialog').getByRole('button', { name: 'Quitter le salon' }).click();
  await third.page.locator('[data-presence="left"]').waitFor();
  for (const p of [h, g, third]) assert.deepEqual(p.errors.filter((e) => !/WebSocket|409|Failed to load/.test(e)), []);
  for (const p of [h, third]) await p.context.close();
});
