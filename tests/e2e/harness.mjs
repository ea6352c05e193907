// Shared by the end-to-end suites: starts the relay serving the built client on a free loopback
// port, launches Debian's headless Chromium, and knows the boards' notation.
import { spawn, execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET = process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target');
export const RELAY_BIN = process.env.RELAY_BIN || path.join(TARGET, 'release', 'signaling');
export const ENGINE_BIN = process.env.ENGINE_BIN || path.join(TARGET, 'release', 'engine');
export const STATIC_DIR = process.env.STATIC_DIR || path.join(ROOT, 'client', 'dist');
export const SHOTS = process.env.SCREENSHOT_DIR || path.join(TARGET, 'screenshots');

/** Starts the relay on `addr` (a free loopback port by default) serving the client built in
 * `staticDir`; resolves with { url, stop }. */
export async function startRelay(extraArgs = [], addr = '127.0.0.1:0', staticDir = STATIC_DIR) {
  const child = spawn(RELAY_BIN, ['--addr', addr, '--static-dir', staticDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`relay did not start: ${stderr}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^\s]+?)\/?\s/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`relay exited ${code}: ${stderr}`)); });
  });
  child.removeAllListeners('exit');
  return {
    url,
    stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }),
  };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

/** The suites read the pages in French, the site's default language: every context of this
 * browser speaks French (`navigator.languages`) unless a test gives another `locale`
 * (languages.test.mjs). Headless Chromium would otherwise say en-US, and the site follow it. */
export const LOCALE = 'fr-FR';

export async function launchBrowser() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ locale: LOCALE, ...options });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = (options = {}) => newPage({ locale: LOCALE, ...options });
  return browser;
}

/**
 * A suite's relay and browser, in `ctx` (`ctx.relay`, `ctx.browser`, as `roomKit` wants them):
 * started before its tests, closed after them. A suite's own `after` (its figures) runs later.
 */
export function relayAndBrowser(ctx) {
  before(async () => {
    ctx.relay = await startRelay();
    ctx.browser = await launchBrowser();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.relay?.stop();
  });
}

/**
 * Cuts a context's network as a real cut does. Playwright emulates the cut (`setOffline`), and
 * every request, worker fetch and websocket fails; but some Chromium versions (Debian's 148 and
 * 150; 156 does not) let a document *loaded* under the emulation read `navigator.onLine ===
 * true`, and never give it the `online` event when the network returns, whereas after a real cut
 * it reads `false` and gets the event. The pages rely on both (index.html's offline note), so
 * the suite would test the emulation, not the page. Until `restoreNetwork`, documents of this
 * context therefore read `navigator.onLine` as a real cut gives it: `false` from their start,
 * then whatever the `online`/`offline` events say. Nothing else is changed.
 */
export async function cutNetwork(context) {
  if (!context.__cutScript) {
    context.__cutScript = true;
    await context.addInitScript(() => {
      const real = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine').get;
      let told = null; // what the last online/offline event said, once one came
      Object.defineProperty(Navigator.prototype, 'onLine', {
        configurable: true,
        enumerable: true,
        get() { return told ?? (window.__e2eNetworkCut ? false : real.call(this)); },
      });
      // Registered before any of the page's listeners, so they read the new value.
      addEventListener('online', () => { told = true; }, true);
      addEventListener('offline', () => { told = false; }, true);
    });
  }
  // Init scripts run in the order they were added: the last of these says the current state.
  await context.addInitScript(() => { window.__e2eNetworkCut = true; });
  await context.setOffline(true);
}

/** Gives the network back (see `cutNetwork`): documents loaded while it was cut get the `online`
 * event a real reconnection gives them, if the browser did not send it. */
export async function restoreNetwork(context) {
  await context.addInitScript(() => { window.__e2eNetworkCut = false; });
  await context.setOffline(false);
  for (const page of context.pages()) {
    await page.waitForTimeout(200);
    await page.evaluate(() => { if (!navigator.onLine) dispatchEvent(new Event('online')); });
  }
}

/**
 * An init script (`context.addInitScript(COUNT_PAGE)`, before the page loads) that lets a test
 * prove something did *not* happen without a fixed sleep: the page's pending timeouts are
 * tracked (see `timersDone`) and the workers it creates are counted (`window.__e2eWorkers`).
 * Nothing else changes: the page's own timers and workers run as before.
 */
export const COUNT_PAGE = () => {
  const set = window.setTimeout.bind(window);
  const clear = window.clearTimeout.bind(window);
  const pending = new Set();
  window.__e2eSetTimeout = set;
  window.__e2ePendingTimers = () => [...pending];
  window.setTimeout = (f, ms, ...args) => {
    const id = set((...a) => {
      pending.delete(id);
      if (typeof f === 'function') f(...a);
    }, ms, ...args);
    pending.add(id);
    return id;
  };
  window.clearTimeout = (id) => { pending.delete(id); clear(id); };
  const RealWorker = window.Worker;
  window.__e2eWorkers = 0;
  if (RealWorker) {
    window.Worker = class extends RealWorker {
      constructor(...args) { super(...args); window.__e2eWorkers += 1; }
    };
  }
};

/** Waits until every timeout the page (loaded with `COUNT_PAGE`) had pending when called has
 * fired or been cleared: whatever the page had scheduled — a delayed landing, a retry — has
 * then happened, or never will. Throws if one is still pending after `within` ms. */
export async function timersDone(page, within = 20000) {
  const left = await page.evaluate((within) => new Promise((resolve) => {
    const ids = window.__e2ePendingTimers();
    const t0 = performance.now();
    const check = () => {
      const now = new Set(window.__e2ePendingTimers());
      const waiting = ids.filter((id) => now.has(id));
      if (!waiting.length || performance.now() - t0 > within) resolve(waiting.length);
      else window.__e2eSetTimeout(check, 10);
    };
    check();
  }), within);
  assert.equal(left, 0, `${left} of the page's timeouts still pending after ${within} ms`);
}

/** The browsers and drivers the suite runs, for its log and docs/architecture.md. */
export async function versions() {
  const { default: playwright } = await import('playwright-core/package.json', { with: { type: 'json' } });
  const { default: puppeteer } = await import('puppeteer-core/package.json', { with: { type: 'json' } });
  const version = (bin) => {
    try {
      return execFileSync(bin, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    } catch {
      return `${bin}: not found`;
    }
  };
  return {
    chromium: version(process.env.CHROMIUM || '/usr/bin/chromium'),
    firefox: version(process.env.FIREFOX || '/usr/bin/firefox-esr'),
    playwright: `playwright-core ${playwright.version}`,
    puppeteer: `puppeteer-core ${puppeteer.version}`,
  };
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export async function screenshot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Runs `engine replay GAME` on a record and parses its JSON line; `rules` (Morris, any form
 * `--rules` takes) plays it under other rules than the classic ones. */
export function engineReplay(game, record, maxTurns, rules) {
  const args = ['replay', game, ...(maxTurns ? ['--max-turns', String(maxTurns)] : []),
    ...(rules ? ['--rules', rules] : [])];
  return JSON.parse(execFileSync(ENGINE_BIN, args, { input: record }).toString());
}

/** Runs `engine ai GAME` on a record: the turn the engine plays there (its last line); `rules`
 * as for `engineReplay`. */
export function engineAi(game, record, { level = 1, seed = 1, maxTurns, rules } = {}) {
  const args = ['ai', game, '--level', String(level), '--seed', String(seed),
    ...(maxTurns ? ['--max-turns', String(maxTurns)] : []), ...(rules ? ['--rules', rules] : [])];
  const out = execFileSync(ENGINE_BIN, args, { input: record, stdio: ['pipe', 'pipe', 'ignore'] });
  return out.toString().trim().split('\n').pop();
}

// A Morris game won by Blue on pieces: placements, captures, a move, a red flight, a last capture.
export const MORRIS_GAME = 'd5 g1 c3 g7 c4 a4 c5xa4 a1 e5xg7 d1xd5 d5xa1 a1xd5 d5xa1 a1xc4 c4xg1 g1xc3 '
  + 'c3xa1 a1xc4 d5-d6 d1-f6 d6-d5xf6';
// A UTTT game won by Red with the middle row of boards, with a drawn small board on the way.
export const META_GAME = 'd2 b4 d1 b3 e9 d9 c9 h9 d7 a1 b1 d3 a7 a2 a5 b5 f6 g9 b9 d8 c4 h3 e8 e4 e2 d6 '
  + 'a9 h7 f3 h8 d5 b6 f9 a3 g3 h5 f5 i6 i2 g5 h1 h2 d4 g2 g4 i1 g1 i5 i3 e5 e6 f4';

// Morris point names by index (docs/rules.md) and their board coordinates.
export const MORRIS_NAMES = ['a7', 'd7', 'g7', 'g4', 'g1', 'd1', 'a1', 'a4', 'b6', 'd6', 'f6', 'f4',
  'f2', 'd2', 'b2', 'b4', 'c5', 'd5', 'e5', 'e4', 'e3', 'd3', 'c3', 'c4'];
export const point = (name) => {
  const i = MORRIS_NAMES.indexOf(name);
  if (i < 0) throw new Error(`no point ${name}`);
  return i;
};
/** A Morris token as the clicks it takes: [from?, to, capture?]. */
export function morrisClicks(token) {
  const [body, cap] = token.split('x');
  const [a, b] = body.split('-');
  return [a, b, cap].filter(Boolean).map(point);
}

/** UTTT cell index (board*9+cell) of an algebraic name such as e5. */
export function cell(name) {
  const col = name.charCodeAt(0) - 97;
  const row = 9 - Number(name.slice(1));
  return (Math.floor(row / 3) * 3 + Math.floor(col / 3)) * 9 + (row % 3) * 3 + (col % 3);
}

/** The board as the engine's JSON string, read from the data-piece hooks. */
export async function boardString(page, attr, count, marks) {
  return page.evaluate(({ attr, count, marks }) => {
    let s = '';
    for (let i = 0; i < count; i++) {
      const el = document.querySelector(`[${attr}="${i}"]`);
      const piece = el.getAttribute('data-piece');
      s += piece === null ? '.' : marks[Number(piece)];
    }
    return s;
  }, { attr, count, marks });
}

/** Index of the focused point or cell (`attr`), or null. */
export function focused(page, attr) {
  return page.evaluate((attr) => {
    const v = document.activeElement && document.activeElement.getAttribute(attr);
    return v === null || v === undefined ? null : Number(v);
  }, attr);
}

/** Resolves once the page has drawn two more frames: what a key or click set off is on screen. */
export function settle(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Tabs from the top of the page until a board point or cell has the focus. */
export async function tabIntoBoard(page, attr) {
  for (let i = 0; i < 40; i++) {
    if ((await focused(page, attr)) !== null) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('the board never got the focus by Tab');
}

const ARROWS = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const learned = new Map(); // per hook attribute: "from|key" -> to, as observed

/** Keys along known transitions from `from` to the first node satisfying `goal`, or null. */
function plan(graph, from, goal) {
  const seen = new Map([[from, []]]);
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    if (goal(node)) return seen.get(node);
    for (const key of Object.keys(ARROWS)) {
      const next = graph.get(`${node}|${key}`);
      if (next !== undefined && !seen.has(next)) {
        seen.set(next, [...seen.get(node), key]);
        queue.push(next);
      }
    }
  }
  return null;
}

/**
 * Walks the focus to `target` with arrow keys only, as a person would: it learns where each key
 * leads from each point as it goes, follows known paths, and otherwise tries the untried key that
 * points most towards the target. `coords(i)` gives [x, y] with y up. Fails if the target cannot
 * be reached, which would mean some point is not reachable by arrows.
 */
export async function arrowTo(page, attr, target, coords) {
  if (!learned.has(attr)) learned.set(attr, new Map());
  const graph = learned.get(attr);
  const unknownKeys = (n) => Object.keys(ARROWS).filter((k) => !graph.has(`${n}|${k}`));
  for (let presses = 0; presses < 500; presses++) {
    const at = await focused(page, attr);
    if (at === target) return presses;
    const path = plan(graph, at, (n) => n === target) ?? plan(graph, at, (n) => unknownKeys(n).length > 0);
    if (path === null) break;
    let key = path[0];
    if (key === undefined) {
      const [x0, y0] = coords(at);
      const [x1, y1] = coords(target);
      const towards = (k) => ARROWS[k][0] * (x1 - x0) + ARROWS[k][1] * (y1 - y0);
      key = unknownKeys(at).sort((a, b) => towards(b) - towards(a))[0];
    }
    await page.keyboard.press(key);
    let now = await focused(page, attr);
    const known = graph.get(`${at}|${key}`);
    if (now === at || (known !== undefined && now !== known)) {
      // A key that seems not to move the focus, or to move it elsewhere than before: read it
      // again once the page has drawn two frames, so that a busy machine's late render is not
      // learned as the board's map (a wrong map makes the target look unreachable).
      await settle(page);
      now = await focused(page, attr);
    }
    graph.set(`${at}|${key}`, now);
  }
  throw new Error(`could not reach ${target} with arrows`);
}

export const morrisCoords = (i) => {
  const n = MORRIS_NAMES[i];
  return [n.charCodeAt(0) - 97, Number(n[1]) - 1];
};
export const metaCoords = (i) => {
  const b = Math.floor(i / 9); const c = i % 9;
  const col = (b % 3) * 3 + (c % 3);
  const row = Math.floor(b / 3) * 3 + Math.floor(c / 3);
  return [col, 8 - row];
};

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
