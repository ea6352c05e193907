// Firefox for the browser suites: Debian's stock `firefox-esr`, driven by puppeteer-core over
// WebDriver BiDi. Playwright drives only its own patched Firefox builds, which it downloads (no
// download reaches these machines); puppeteer-core speaks the W3C protocol that stock Firefox
// implements, with no download and no extension (docs/architecture.md, « Browsers tested »).
//
// Helpers here use only `evaluate`, `goto`, `waitForSelector` and element clicks, so that most of
// them work on a Playwright page (Chromium) and a Puppeteer page (Firefox) alike.
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';

/** Preferences of every Firefox the suites start. */
export const FIREFOX_PREFS = {
  // Firefox's twin of Chromium's `--disable-features=WebRtcHideLocalIpsWithMdns`: host candidates
  // carry their addresses, so that two browsers on one machine meet without an mDNS responder.
  'media.peerconnection.ice.obfuscate_host_addresses': false,
  // The site's default language, as the Chromium contexts get it (harness.mjs, LOCALE).
  'intl.accept_languages': 'fr-FR, fr',
};

/** Starts a headless Firefox; `prefs` add to or override FIREFOX_PREFS. */
export function launchFirefox(prefs = {}) {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { ...FIREFOX_PREFS, ...prefs },
  });
}

/** A page in a new context of a Puppeteer browser (own storage), recording its errors. */
export async function firefoxPage(browser) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { page, context, errors };
}

/** Waits until `fn(arg)`, evaluated in the page, is truthy; returns its value (a plain value:
 * a DOM node does not cross WebDriver BiDi as itself). */
export async function until(page, fn, arg, { timeout = 20000, what = String(fn) } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** [`until`] on a game page, whose failure says what the page shows (its turns, record, status,
 * visible notices, selected point and, after [`recordClicks`], where the last clicks landed): a
 * lost click and a silent page differ. */
export async function untilOnGame(page, fn, arg, { timeout = 20000, what } = {}) {
  try {
    return await until(page, fn, arg, { timeout, what });
  } catch (e) {
    const state = await page.evaluate(() => {
      const d = document.querySelector('main').dataset;
      const notices = [...document.querySelectorAll('[role="alert"], .notice')]
        .filter((n) => n.getClientRects().length > 0).map((n) => n.textContent);
      const selected = [...document.querySelectorAll('[data-point].selected')]
        .map((n) => n.getAttribute('data-point'));
      const clicks = (window.__clicks ?? []).slice(-4);
      return { turns: d.turns, thinking: d.thinking, record: d.record, notices, selected, clicks,
        plies: document.querySelectorAll('[data-ply]').length,
        status: document.querySelector('[data-status]')?.textContent };
    });
    throw new Error(`${e.message}; the page: ${JSON.stringify(state)}`);
  }
}

/** From now on the page notes where each click lands (the point, or the element, and where). */
export function recordClicks(page) {
  return page.evaluate(() => {
    window.__clicks = [];
    document.addEventListener('click', (e) => {
      const p = e.target.closest?.('[data-point]');
      window.__clicks.push(`${p ? p.getAttribute('data-point') : e.target.tagName}@${e.clientX},${e.clientY}`);
    }, true);
  });
}

/** Waits for an element matching `selector`; with `text`, one whose text contains it. */
export function visible(page, selector, text = '', timeout = 20000) {
  return until(page, ({ selector, text }) => [...document.querySelectorAll(selector)]
    .some((e) => e.textContent.includes(text) && e.getClientRects().length > 0), { selector, text },
  { timeout, what: `${selector} « ${text} »` });
}

/** Clicks, as a person would (the browser's own input), the button or link named `name`. */
export async function clickNamed(page, name, selector = 'button, a') {
  await visible(page, selector, name);
  const handle = await page.evaluateHandle(({ name, selector }) => [...document.querySelectorAll(selector)]
    .find((e) => e.textContent.trim() === name), { name, selector });
  await handle.click();
}

/** Types `value` in the field labelled `label`, replacing what it held. */
export async function fillLabelled(page, label, value) {
  await visible(page, 'label', label);
  await page.evaluate((label) => {
    const l = [...document.querySelectorAll('label')].find((e) => e.textContent.includes(label));
    const input = l.control ?? l.querySelector('input');
    input.focus();
    input.select();
  }, label);
  await page.keyboard.type(value);
}
