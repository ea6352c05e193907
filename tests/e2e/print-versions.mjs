// Prints the browsers and drivers the end-to-end suite runs with (scripts/test.sh, before it).
import { versions } from './harness.mjs';

const v = await versions();
console.log(`Browsers: ${v.chromium}; ${v.firefox}. Drivers: ${v.playwright} (Chromium), ${v.puppeteer} (Firefox, WebDriver BiDi).`);
