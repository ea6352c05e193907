// Remote play as friends actually do it, in headless Chromium with separate contexts: the host
// closes its tab and opens the room link again; a second device asks for a seat, is refused,
// asks again and is let in (the transcript, hand-over included, verified by `engine verify`);
// the room opened twice in one browser (by the host, then by the guest with a double click); a
// third visitor; repeated requests that must wait; the relay going down; a direct connection the
// networks block, and its retry; a browser that will not keep the seat. Figures: reopening a
// closed host tab → play resumes, and navigation → « connexion directe impossible ».
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  relayAndBrowser, startRelay, DESKTOP, screenshot, engineReplay, morrisClicks, cell, boardString,
  median, ENGINE_BIN, MORRIS_GAME,
} from './harness.mjs';
import { roomKit } from './rooms.mjs';

const figures = { connect: [], latency: [], resume: [], blocked: [], full: [] };
const ctx = {};
const { player, tab, createRoom, join, watchBoard, playTurn } = roomKit(ctx, figures);

relayAndBrowser(ctx);

after(() => {
  const line = (name, xs) => xs.length && console.log(`# seats: ${name}, ms: ${xs.map((x) => x.toFixed(0)).join(', ')} (median ${median(xs).toFixed(0)})`);
  line('closed host tab reopened → play resumes', figures.resume);
  line('navigation → « connexion directe impossible » on both sides', figures.blocked);
  line('navigation → « Salon complet » for a third visitor', figures.full);
});

const morrisSelectors = (token) => morrisClicks(token).map((p) => `[data-point="${p}"]`);

/** Records every value `data-presence` takes in a page. */
async function recordPresence(page) {
  await page.evaluate(() => {
    window.__presence = [];
    const note = () => {
      const v = document.querySelector('[data-presence]')?.getAttribute('data-presence');
      if (v && window.__presence[window.__presence.length - 1] !== v) window.__presence.push(v);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-presence'] });
  });
}

/** A free cell of the board a Méta Morpion page must play in. */
function freeCell(page) {
  return page.evaluate(() => {
    const b = Number(document.querySelector('g.playable[data-board]').getAttribute('data-board'));
    const inBoard = (i) => Math.floor(Math.floor(i / 9) / 3) * 3 + Math.floor((i % 9) / 3) === b;
    return [...document.querySelectorAll('[data-cell]:not([data-piece])')].map((c) => Number(c.getAttribute('data-cell'))).find(inBoard);
  });
}

/** The signed transcript a page exports. */
async function exported(page) {
  await page.getByRole('button', { name: 'Exporter la partie' }).click();
  const href = await page.locator('[data-export="transcript"]').getAttribute('href');
  return decodeURIComponent(href.slice(href.indexOf(',') + 1));
}

test('a closed host tab reopens into its seat; a new device takes a seat only when the present player lets it', async () => {
  const h = await player();
  const g = await player();
  const { link } = await createRoom(h.page, 'morris');
  await join(g.page, h.page, link);
  const tokens = MORRIS_GAME.split(' ');
  let pages = [h.page, g.page]; // Blue is the host.
  for (const p of pages) await watchBoard(p);
  const turn = async (i) => {
    await playTurn(pages[i % 2], pages[1 - i % 2], morrisSelectors(tokens[i]), 'data-point', 24, 'BR');
  };
  for (let i = 0; i < 4; i++) await turn(i);
  await recordPresence(g.page);

  // 1. The host closes its tab, then opens the room address again in the same browser: the same
  // seat, the same game, and the guest never sees a stranger.
  await h.page.close();
  await g.page.locator('[data-presence="away"]').waitFor({ timeout: 20000 });
  const h2 = await tab(h.context);
  const t0 = Date.now();
  await h2.page.goto(link);
  await h2.page.locator('main[data-my-turn="true"]').waitFor({ timeout: 20000 });
  await g.page.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  figures.resume.push(Date.now() - t0);
  assert.equal(await h2.page.locator('main').getAttribute('data-seat'), 'host');
  assert.equal(await h2.page.locator('[data-point][data-piece]').count(), 4);
  assert.deepEqual(await g.page.evaluate(() => window.__presence), ['here', 'away', 'here']);
  pages = [h2.page, g.page];
  await watchBoard(h2.page);
  for (let i = 4; i < 6; i++) await turn(i);

  // 2. The friend moves to another browser (a messaging app's, then its own): the new one is not
  // the guest — the host reads that another device is trying to join and is asked.
  await g.context.close();
  await h2.page.locator('[data-presence="away"]').waitFor({ timeout: 20000 });
  const g2 = await player();
  await g2.page.goto(link);
  await g2.page.locator('[data-standing="knocking"]').waitFor({ timeout: 20000 });
  assert.equal(await g2.page.locator('[data-standing]').count(), 1);
  // One story on the page: not a player, so nobody is « votre adversaire » nor « l'invité ».
  assert.equal(await g2.page.locator('main').getAttribute('data-seat'), 'none');
  await g2.page.locator('[data-presence="player-here"]').waitFor({ timeout: 20000 });
  for (const wrong of ['Votre adversaire', "vous êtes l'invité", 'Quitter le salon']) {
    assert.equal(await g2.page.getByText(wrong).count(), 0, wrong);
  }
  assert.equal(await g2.page.locator('main[data-my-turn="true"]').count(), 0);
  const asked = h2.page.locator('[data-knock]');
  await asked.getByText("Un nouvel appareil demande la place de Rouge. L'accepter ?").waitFor({ timeout: 20000 });
  assert.match(await asked.locator('.countdown').textContent(), /Réponse attendue dans (1:00|0:5\d)\./);
  assert.match(await h2.page.locator('[data-presence]').textContent(), /^Un autre appareil tente de rejoindre ce salon : la place de votre adversaire reste gardée encore \d:\d\d\.$/);
  assert.equal(await h2.page.locator('[data-presence]').getAttribute('data-presence'), 'stranger');
  await screenshot(h2.page, 'seats-knock-desktop');
  await screenshot(g2.page, 'seats-knocking-desktop');

  // Declined: the new device is told, and asking again waits with its button.
  await asked.getByRole('button', { name: 'Refuser' }).click();
  await g2.page.locator('[data-standing="refused"]').getByText('Le joueur présent a refusé de vous confier la place.').waitFor({ timeout: 20000 });
  const again = g2.page.locator('[data-standing]').getByRole('button');
  assert.match(await again.textContent(), /^Redemander la place \((10|9|8) s\)$/);
  assert.equal(await again.isDisabled(), true);
  await g2.page.locator('[data-standing]').getByRole('button', { name: 'Redemander la place', exact: true }).waitFor({ timeout: 15000 });
  await again.click();
  await asked.waitFor({ timeout: 20000 });

  // Accepted: the new device holds the guest's seat and the game goes on where it was.
  await asked.getByRole('button', { name: 'Accepter' }).click();
  await g2.page.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await h2.page.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  assert.equal(await g2.page.locator('main').getAttribute('data-seat'), 'guest');
  assert.equal(await g2.page.locator('[data-standing]').count(), 0);
  assert.equal(await boardString(g2.page, 'data-point', 24, 'BR'), await boardString(h2.page, 'data-point', 24, 'BR'));
  pages = [h2.page, g2.page];
  await watchBoard(g2.page);
  for (let i = 6; i < tokens.length; i++) await turn(i);
  await g2.page.locator('[data-status="won"][data-winner="0"]').waitFor();

  // The whole transcript, hand-over included, verifies to the game played.
  const { room: story, ...state } = JSON.parse(execFileSync(ENGINE_BIN, ['verify'], { input: await exported(g2.page) }).toString());
  assert.deepEqual(state, engineReplay('morris', MORRIS_GAME));
  assert.equal(story.handovers.length, 1);
  assert.equal(story.handovers[0].seat, 'guest');
  assert.notEqual(story.handovers[0].key, story.guest.key, 'the seat moved to the new key');
  assert.deepEqual(story.faults, []);
  assert.match(story.verdict, /^verified/);
  for (const p of [h, h2, g2]) assert.deepEqual(p.errors, []);
  await h.context.close();
  await g2.context.close();
});

test('one room, one tab per browser; a third visitor sees only a full room; a refused request waits; the relay down is said as such', async () => {
  // Every page counts its WebRTC connections, to check those of a replaced socket are closed.
  const countConnections = () => {
    const Original = window.RTCPeerConnection;
    window.__connections = [];
    window.RTCPeerConnection = new Proxy(Original, {
      construct(target, args, newTarget) {
        const c = Reflect.construct(target, args, newTarget);
        window.__connections.push(c);
        return c;
      },
    });
  };
  const h = await player(DESKTOP, { init: countConnections });
  const g = await player(DESKTOP, { init: countConnections });
  const { link } = await createRoom(h.page, 'meta');

  // The host tries its own link before the friend comes: the same browser already has the room
  // open; the guest's seat stays free.
  const again = await tab(h.context);
  await again.page.goto(link);
  await again.page.locator('[data-elsewhere="busy"]').getByText('Ce salon est déjà ouvert dans un autre onglet de ce navigateur', { exact: false }).waitFor();
  assert.equal(await again.page.getByText('invité').count(), 0);
  await screenshot(again.page, 'seats-open-elsewhere-desktop');
  await again.page.close();
  await join(g.page, h.page, link);
  assert.equal(await g.page.locator('main').getAttribute('data-seat'), 'guest');
  for (const p of [h.page, g.page]) await watchBoard(p);
  await playTurn(h.page, g.page, [`[data-cell="${cell('e5')}"]`], 'data-cell', 81, 'XO');

  // A second tab takes the room over: the first one stops and says where the game went.
  const h2 = await tab(h.context);
  await h2.page.goto(link);
  await h2.page.getByRole('button', { name: 'Jouer dans cet onglet' }).click();
  await h.page.locator('[data-elsewhere="taken"]').waitFor({ timeout: 20000 });
  await h2.page.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  assert.equal(await h2.page.locator('main').getAttribute('data-seat'), 'host');
  await watchBoard(h2.page);
  await playTurn(g.page, h2.page, [`[data-cell="${cell('d5')}"]`], 'data-cell', 81, 'XO');

  // The guest opens the room in a second tab too, and takes it over with a double click: one
  // room, one socket — the first tab stops, the game goes on in the new one.
  const gTab = await tab(g.context);
  const gSockets = [];
  gTab.page.on('websocket', (ws) => gSockets.push(ws.url()));
  await gTab.page.goto(link);
  await gTab.page.locator('[data-elsewhere="busy"]').waitFor();
  await gTab.page.getByRole('button', { name: 'Jouer dans cet onglet' }).dblclick();
  await g.page.locator('[data-elsewhere="taken"]').waitFor({ timeout: 20000 });
  for (const p of [gTab.page, h2.page]) await p.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  assert.equal(await gTab.page.locator('main').getAttribute('data-seat'), 'guest');
  await watchBoard(gTab.page);
  await playTurn(h2.page, gTab.page, [`[data-cell="${await freeCell(h2.page)}"]`], 'data-cell', 81, 'XO');
  assert.deepEqual(gSockets.length, 1, gSockets.join(' '));
  assert.equal(await h2.page.locator('[data-presence]').getAttribute('data-presence'), 'here');

  // A third visitor with the link: the room is full, and that is all the page says.
  const third = await player();
  const t0 = Date.now();
  await third.page.goto(link);
  await third.page.locator('main[data-room-full]').waitFor({ timeout: 20000 });
  figures.full.push(Date.now() - t0);
  const text = await third.page.locator('main').innerText();
  assert.match(text, /Salon complet/);
  assert.doesNotMatch(text, /vous êtes|adversaire est|Connexion à l'hôte|Relais joint/);
  await screenshot(third.page, 'seats-room-full-desktop');
  await third.context.close();

  // A request declined: asking again at once says how long to wait, and the button waits.
  const gp = gTab.page;
  await gp.locator('main[data-my-turn="true"]').waitFor();
  await gp.getByRole('button', { name: 'Proposer la nulle' }).click();
  await h2.page.getByRole('alertdialog').getByRole('button', { name: 'Refuser' }).click();
  await gp.getByText('Votre adversaire a refusé : une partie nulle.').waitFor();
  const draw = gp.getByRole('button', { name: /^Proposer la nulle/ });
  assert.match(await draw.textContent(), /^Proposer la nulle \((10|9) s\)$/);
  assert.equal(await draw.isDisabled(), true);
  await gp.getByRole('button', { name: 'Proposer la nulle', exact: true }).waitFor({ timeout: 15000 });
  // « Annuler le coup » likewise, each kind of request with its own wait.
  await gp.getByRole('button', { name: 'Annuler le coup', exact: true }).click();
  await h2.page.getByRole('alertdialog').getByRole('button', { name: 'Refuser' }).click();
  await gp.getByText('Votre adversaire a refusé : annuler le dernier tour.').waitFor();
  const undo = gp.getByRole('button', { name: /^Annuler le coup/ });
  assert.match(await undo.textContent(), /^Annuler le coup \((10|9) s\)$/);
  assert.equal(await undo.isDisabled(), true);
  assert.equal(await draw.isDisabled(), false, 'the draw does not wait for the undo');

  // The guest closes its tabs: the host, alone, replaces its socket; then the relay goes down.
  // The page says the relay is unreachable, never that it waits for the other browser.
  await g.page.close();
  await gp.close();
  await h2.page.locator('[data-presence="away"]').waitFor({ timeout: 20000 });
  const addr = new URL(ctx.relay.url).host;
  await ctx.relay.stop();
  const relayLine = h2.page.locator('[data-relay]', { hasText: 'Le relais est injoignable' });
  await relayLine.waitFor({ timeout: 20000 });
  // Every text the side panel takes from now on, through the page's next two tries (each asks
  // the relay about the room first, and fails): none says « Relais joint ».
  let tries = 0;
  const twoTries = new Promise((resolve) => h2.page.on('requestfailed', (r) => {
    if (new URL(r.url()).pathname.startsWith('/ws/') && ++tries === 2) resolve();
  }));
  await h2.page.evaluate(() => {
    const texts = [document.querySelector('aside').innerText];
    window.__e2eAsideTexts = texts;
    new MutationObserver(() => texts.push(document.querySelector('aside')?.innerText ?? ''))
      .observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await twoTries;
  const seen = await h2.page.evaluate(() => window.__e2eAsideTexts);
  console.log(`# seats: the panel took ${seen.length} texts over the page's two tries with the relay down`);
  assert.ok(!seen.some((t) => /Relais joint/.test(t)), seen.join(' | '));
  // The relay is back; the guest opens the link again in its browser: its seat, its game.
  ctx.relay = await startRelay([], addr);
  const g2 = await tab(g.context);
  await g2.page.goto(link);
  for (const p of [h2.page, g2.page]) await p.locator('[data-presence="here"]').waitFor({ timeout: 40000 });
  assert.equal(await g2.page.locator('main').getAttribute('data-seat'), 'guest');
  await watchBoard(g2.page);
  await g2.page.locator('main[data-my-turn="true"]').waitFor();
  await playTurn(g2.page, h2.page, [`[data-cell="${await freeCell(g2.page)}"]`], 'data-cell', 81, 'XO');
  // The host met the guest over three sockets; only the connection in use is open.
  const states = await h2.page.evaluate(() => window.__connections.map((c) => c.connectionState));
  assert.ok(states.length >= 2, states.join(','));
  assert.equal(states.filter((s) => s !== 'closed').length, 1, states.join(','));
  for (const p of [g, gTab, g2, h2]) assert.deepEqual(p.errors.filter((e) => !/WebSocket|Failed to load resource/.test(e)), []);
  await h.context.close();
  await g.context.close();
});

test('both players reach the relay but their networks block a direct connection: both are told, with a retry', async () => {
  // Only relayed candidates, and no TURN server: the data channel can never open.
  const relayOnly = () => {
    const Original = window.RTCPeerConnection;
    window.RTCPeerConnection = new Proxy(Original, {
      construct(target, [config, ...rest], newTarget) {
        return Reflect.construct(target, [{ ...(config || {}), iceTransportPolicy: 'relay' }, ...rest], newTarget);
      },
    });
  };
  const h = await player(DESKTOP, { init: relayOnly });
  const g = await player(DESKTOP, { init: relayOnly });
  const { link } = await createRoom(h.page, 'morris');
  const t0 = Date.now();
  await g.page.goto(link);
  const told = (p) => p.locator('[data-blocked]', { hasText: 'Connexion directe impossible' }).waitFor({ timeout: 30000 }).then(() => Date.now() - t0);
  const times = await Promise.all([told(h.page), told(g.page)]);
  figures.blocked.push(Math.max(...times));
  for (const p of [h.page, g.page]) {
    const text = await p.locator('main').innerText();
    assert.match(text, /TURN/);
    assert.doesNotMatch(text, /En attente de votre adversaire : envoyez-lui|Personne n'a ouvert ce salon|pas encore là|Connexion à l'hôte/);
    assert.equal(await p.locator('[data-presence]').getAttribute('data-presence'), 'blocked');
  }
  await screenshot(g.page, 'seats-blocked-desktop');
  // « Réessayer » really tries again: a new STUN/TURN list and a question to the relay, then a
  // new socket; once it too has waited without a channel the relay is asked anew — both still in
  // the room, so still blocked, still said.
  const asked = [];
  g.page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/ice-servers') asked.push('ice');
    else if (path.startsWith('/ws/') && r.resourceType() === 'fetch') asked.push('probe');
  });
  g.page.on('websocket', () => asked.push('socket'));
  const socket = g.page.waitForEvent('websocket', { timeout: 10000 });
  await g.page.getByRole('button', { name: 'Réessayer' }).click();
  await socket;
  const before = asked.slice(0, asked.indexOf('socket'));
  assert.ok(before.includes('ice') && before.includes('probe'), asked.join(' '));
  await g.page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/ws/') && r.request().resourceType() === 'fetch', { timeout: 20000 });
  assert.deepEqual(asked.slice(asked.indexOf('socket')), ['socket', 'probe']);
  await told(g.page);
  assert.equal(await g.page.locator('[data-presence]').getAttribute('data-presence'), 'blocked');
  for (const p of [h, g]) assert.deepEqual(p.errors.filter((e) => !/WebSocket|Failed to load resource/.test(e)), []);
  await h.context.close();
  await g.context.close();
});

test('a browser that will not keep the seat is told so: the lobby makes no room, the room page warns', async () => {
  // This browser's storage is full: every localStorage write fails.
  const full = () => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (this === window.localStorage) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return setItem.call(this, key, value);
    };
  };
  const f = await player(DESKTOP, { init: full });
  await f.page.goto(`${ctx.relay.url}/moulin/distance`);
  await f.page.getByRole('button', { name: 'Créer le salon' }).click();
  await f.page.getByRole('alert').getByText("Ce navigateur refuse d'enregistrer votre place", { exact: false }).waitFor();
  assert.equal(new URL(f.page.url()).pathname, '/moulin/distance', 'no room without its host seat');
  // As a guest it plays, and reads that closing or reloading the tab would cost it the seat.
  const h = await player();
  const { link } = await createRoom(h.page, 'morris');
  await join(f.page, h.page, link);
  await f.page.locator('.notice', { hasText: "Ce navigateur n'enregistre pas votre place" }).waitFor();
  assert.equal(await h.page.locator('.notice', { hasText: "Ce navigateur n'enregistre pas" }).count(), 0);
  for (const p of [h, f]) assert.deepEqual(p.errors, []);
  await h.context.close();
  await f.context.close();
});
