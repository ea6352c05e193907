// Renders client/static/icon.svg into the manifest's PNG icons with Debian's headless Chromium;
// run it after changing the drawing (the PNGs are committed, the build only copies them):
//   cd tests/e2e && node render-icons.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launchBrowser } from './harness.mjs';

const dir = path.join(ROOT, 'client', 'static');
const svg = readFileSync(path.join(dir, 'icon.svg'), 'utf8');
const background = '<rect width="512" height="512" rx="96" fill="#f1e3c6"/>';
if (!svg.includes(background)) throw new Error('icon.svg: the background rectangle changed');
const browser = await launchBrowser();
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false], ['icon-512.png', 512, false], ['icon-maskable-512.png', 512, true],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  // Maskable: a full square (the system cuts its own shape), the drawing in the middle 80 %.
  const drawing = maskable
    ? svg.replace(background, '<rect width="512" height="512" fill="#f1e3c6"/><g transform="translate(51.2 51.2) scale(0.8)">')
      .replace('</svg>', '</g></svg>')
    : svg;
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${drawing}`);
  await page.screenshot({ path: path.join(dir, name), omitBackground: true });
  await page.close();
}
await browser.close();
