// The remote room's moves, shared by the browser suites: a player in its own context, creating a
// room, joining it, watching a board and playing a turn while timing it.
import { boardString, DESKTOP } from './harness.mjs';

/**
 * The helpers, bound to `ctx` (whose `relay` and `browser` the suite sets before its tests) and
 * to `figures` (`connect` and `latency` lists the helpers fill).
 */
export function roomKit(ctx, figures) {
  /**
   * A player: its own context (own storage, own everything). `init` is a script every page of
   * the context runs first; `serviceWorkers: 'block'` keeps the site's service worker out (a
   * page it controls sends its requests past `page.route`).
   */
  async function player(viewport = DESKTOP, { init, serviceWorkers } = {}) {
    const context = await ctx.browser.newContext({
      viewport,
      ...(viewport.isMobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: viewport.deviceScaleFactor } : {}),
      ...(serviceWorkers ? { serviceWorkers } : {}),
    });
    if (init) await context.addInitScript(init);
    return tab(context);
  }

  /** Another tab in a player's context (the same browser: same storage). */
  async function tab(context) {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    return { page, context, errors };
  }

  /** Host side: lobby → create the room (a Morris one under the named `rules` if given); returns the invite link and code. */
  async function createRoom(page, game, limit, rules) {
    await page.goto(`${ctx.relay.url}/`);
    const card = page.locator('article.game-card', { has: page.getByRole('heading', { name: game === 'morris' ? 'Jeu du moulin' : 'Méta Morpion' }) });
    await card.getByRole('link', { name: 'Jouer à distance' }).click();
    await page.getByRole('button', { name: 'Créer le salon' }).waitFor();
    if (limit !== undefined) await page.getByLabel('Limite de tours (1 à 500)').fill(String(limit));
    if (rules !== undefined) await page.getByLabel('Règles du jeu').selectOption(rules);
    await page.getByRole('button', { name: 'Créer le salon' }).click();
    const linkBox = page.locator('[data-invite-link]');
    await linkBox.waitFor();
    return { link: await linkBox.inputValue(), code: await page.locator('[data-code]').getAttribute('data-code') };
  }

  /** Opens the link in the guest page and waits for both sides to see each other. */
  async function join(guest, host, link) {
    await guest.goto(link);
    await guest.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
    await host.locator('[data-presence="here"]').waitFor({ timeout: 20000 });
    const ms = Number(await guest.locator('main[data-first-peer-ms]').getAttribute('data-first-peer-ms'));
    figures.connect.push(ms);
  }

  /** Records, in a page, when its board last changed (epoch ms, sub-millisecond). */
  async function watchBoard(page) {
    await page.evaluate(() => {
      window.__boardChanges = [];
      const board = document.querySelector('svg.board');
      new MutationObserver(() => window.__boardChanges.push(performance.timeOrigin + performance.now()))
        .observe(board, { subtree: true, attributes: true, attributeFilter: ['data-piece'] });
    });
  }

  /** Clicks a point or cell from inside the page, returning the epoch time of the click. */
  function clickAt(page, selector) {
    return page.evaluate((selector) => {
      const el = document.querySelector(selector);
      const t = performance.timeOrigin + performance.now();
      el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
      return t;
    }, selector);
  }

  /** Plays one turn by the mover and waits for the other side's board to show it. */
  async function playTurn(mover, other, selectors, attr, count, marks) {
    await mover.locator('main[data-my-turn="true"]').waitFor();
    const before = await other.evaluate(() => window.__boardChanges.length);
    let t = 0;
    for (const sel of selectors) t = await clickAt(mover, sel);
    await other.waitForFunction((n) => window.__boardChanges.length > n, before);
    const expected = await boardString(mover, attr, count, marks);
    await other.waitForFunction(({ attr, count, marks, expected }) => {
      let s = '';
      for (let i = 0; i < count; i++) {
        const p = document.querySelector(`[${attr}="${i}"]`).getAttribute('data-piece');
        s += p === null ? '.' : marks[Number(p)];
      }
      return s === expected;
    }, { attr, count, marks, expected });
    const seen = await other.evaluate(() => window.__boardChanges[window.__boardChanges.length - 1]);
    figures.latency.push(seen - t);
  }

  return { player, tab, createRoom, join, watchBoard, clickAt, playTurn };
}
