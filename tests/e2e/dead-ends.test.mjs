// No dead ends in remote play, end to end in headless Chromium: a code typed in the other game's
// lobby ends in the right room, seated and playing; a well-formed code for a room nobody is in
// is said at once, in the lobby and on a room page opened from it, in French and English; when
// the opponent leaves, the status line by the board says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relayAndBrowser, DESKTOP, PHONE, screenshot } from './harness.mjs';
import { roomKit } from './rooms.mjs';

const ctx = {};
const { player, createRoom } = roomKit(ctx, { connect: [], latency: [] });
relayAndBrowser(ctx);

test('a Morris code typed in the Méta Morpion lobby ends in the Morris room, seated and playing', async () => {
  const h = await player();
  const g = await player(PHONE);
  const { code } = await createRoom(h.page, 'morris');
  await h.page.locator('[data-presence="waiting"]').waitFor();
  await g.page.goto(`${ctx.relay.url}/meta-morpion/distance`);
  await g.page.getByLabel('Code du salon').fill(code);
  await g.page.getByRole('button', { name: 'Rejoindre' }).click();
  await g.page.waitForURL(/\/moulin\/salon#g=morris&c=/);
  for (const p of [h.page, g.page]) await p.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  assert.equal(await g.page.locator('main').getAttribute('data-seat'), 'guest');
  await h.page.locator('[data-point="9"]').click();
  await g.page.locator('[data-point="9"][data-piece="0"]').waitFor();
  await g.page.locator('main[data-my-turn="true"]').waitFor();
  assert.deepEqual([...h.errors, ...g.errors], []);
  await h.context.close();
  await g.context.close();
});

test('a code nobody is in is said at once, in the lobby and in the room; a leaver is said by the board', async () => {
  const nobody = 'ZZZZ-ZZZZ-ZZZ0';
  for (const [locale, lobby, said] of [
    ['fr-FR', 'Code du salon', "Personne n'est dans ce salon"],
    ['en-US', "Room code", 'Nobody is in this room'],
  ]) {
    const context = await ctx.browser.newContext({ viewport: DESKTOP, locale });
    const page = await context.newPage();
    await page.goto(`${ctx.relay.url}/moulin/distance`);
    // « At once »: after one question to the relay about each game's room of that code (a code
    // may be either game's), and no socket opened.
    const asked = [];
    let sockets = 0;
    page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/ws/')) asked.push(r.url()); });
    page.on('websocket', () => { sockets += 1; });
    await page.getByLabel(lobby).fill(nobody);
    await page.getByRole('button', { name: locale === 'fr-FR' ? 'Rejoindre' : 'Join' }).click();
    await page.locator('[role="alert"]', { hasText: said }).waitFor({ timeout: 5000 });
    assert.deepEqual([asked.length, sockets], [2, 0], asked.join(', '));
    assert.match(page.url(), /\/moulin\/distance$/, 'no seat taken');
    await context.close();
  }
  // The same code opened as a room link: said by the board at once, not after 30 s.
  const g = await player();
  await g.page.goto(`${ctx.relay.url}/moulin/salon#g=morris&c=${nobody.replaceAll('-', '')}`);
  await g.page.locator('[data-status]', { hasText: "Personne n'est dans ce salon pour l'instant" }).waitFor({ timeout: 8000 });
  await screenshot(g.page, 'room-nobody-desktop');
  await g.context.close();

  // A game ends; the guest leaves: the host's status line says it.
  const h = await player();
  const g2 = await player();
  const { link } = await createRoom(h.page, 'meta');
  await g2.page.goto(link);
  for (const p of [h.page, g2.page]) await p.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
  await g2.page.getByRole('button', { name: 'Abandonner' }).click();
  await g2.page.getByRole('dialog').getByRole('button', { name: 'Abandonner' }).click();
  await h.page.locator('[data-status="won"]').waitFor();
  await g2.page.getByRole('button', { name: 'Quitter le salon' }).click();
  await g2.page.getByRole('dialog').getByRole('button', { name: 'Quitter le salon' }).click();
  await h.page.locator('[data-status]', { hasText: 'Votre adversaire a quitté le salon.' }).waitFor();
  assert.deepEqual([...h.errors, ...g2.errors], []);
  await h.context.close();
  await g2.context.close();
});
