// Reading a QR code the page drew, as a camera would but without one: the modules from a
// screenshot's pixels (a PNG decoded here with node:zlib), then the format information (its BCH
// code checked), the mask taken off, the codewords gathered along the standard's path and
// de-interleaved by the block table segno wrote (client/tests/qr/tables.txt), and the bytes of
// byte mode read. Written apart from the Rust encoder (model/qr.rs), from ISO/IEC 18004; it
// corrects no error, so a code must be drawn exactly to read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { ROOT } from './harness.mjs';

/** segno's table: `${version} ${level}` → { bytes, ec, blocks, align: [centres] }. */
export const TABLES = new Map(readFileSync(path.join(ROOT, 'client/tests/qr/tables.txt'), 'utf8')
  .trim().split('\n').map((line) => {
    const [v, level, bytes, ec, blocks, align] = line.split(' ');
    return [`${v} ${level}`, {
      bytes: Number(bytes), ec: Number(ec), blocks: Number(blocks),
      align: align === '-' ? [] : align.split(',').map(Number),
    }];
  }));

/** The smallest version holding `length` bytes at `level`, as segno's table says. */
export function versionFor(length, level = 'M') {
  for (let v = 1; v <= 40; v++) if (TABLES.get(`${v} ${level}`).bytes >= length) return v;
  return null;
}

/** An 8-bit RGB or RGBA PNG (what Chromium's screenshots are) as { width, height, px(x, y) → [r, g, b] }. */
export function decodePng(buffer) {
  let at = 8;
  let width; let height; let channels; const idat = [];
  while (at < buffer.length) {
    const len = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    const body = buffer.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('an 8-bit, non-interlaced PNG was expected');
      channels = { 2: 3, 6: 4 }[body[9]];
      if (!channels) throw new Error(`PNG colour type ${body[9]}`);
    } else if (type === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= channels ? out[y * stride + i - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a
        : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, paeth][filter]) & 0xff;
    }
  }
  return { width, height, px: (x, y) => [...out.subarray(y * stride + x * channels, y * stride + x * channels + 3)] };
}

/**
 * The modules of a screenshot of the code with its quiet zone, `side` modules across (size +
 * 8): each module's centre pixel, dark when its luminance is under half. Also says whether
 * the quiet zone is light throughout and the darkest light and lightest dark pixel seen.
 */
export function modulesFromPixels(png, side) {
  const unit = png.width / side;
  const lum = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const grid = [];
  let quietLight = true; let lightest = 0; let darkest = 255;
  for (let y = 0; y < side; y++) {
    const row = [];
    for (let x = 0; x < side; x++) {
      const l = lum(png.px(Math.floor((x + 0.5) * unit), Math.floor((y + 0.5) * unit)));
      const dark = l < 128;
      if (dark) lightest = Math.max(lightest, l); else darkest = Math.min(darkest, l);
      const quiet = x < 4 || y < 4 || x >= side - 4 || y >= side - 4;
      if (quiet && dark) quietLight = false;
      if (!quiet) row.push(dark);
    }
    if (y >= 4 && y < side - 4) grid.push(row);
  }
  return { grid, quietLight, lightest, darkest };
}

/** The modules the SVG path draws (`M{x} {y}h{run}v1H{x}z` per run), without the quiet zone. */
export function modulesFromPath(d, size, quiet = 4) {
  const grid = Array.from({ length: size }, () => Array(size).fill(false));
  for (const [, x, y, run] of d.matchAll(/M(\d+) (\d+)h(\d+)v1H\d+z/g)) {
    for (let i = 0; i < Number(run); i++) grid[Number(y) - quiet][Number(x) - quiet + i] = true;
  }
  return grid;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0, (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => (x * y) % 2 + (x * y) % 3 === 0, (x, y) => ((x * y) % 2 + (x * y) % 3) % 2 === 0,
  (x, y) => ((x + y) % 2 + (x * y) % 3) % 2 === 0,
];
const LEVELS = { 1: 'L', 0: 'M', 3: 'Q', 2: 'H' };

/** Reads a grid of modules (rows of booleans, dark = true): { level, mask, version, text }, or
 * throws saying what is wrong. */
export function readQr(grid) {
  const size = grid.length;
  const version = (size - 17) / 4;
  if (!Number.isInteger(version) || version < 1 || version > 40) throw new Error(`${size} modules a side`);
  const at = (x, y) => grid[y][x];
  // Finder patterns: the dark ring, light ring, dark 3×3 centre, at three corners.
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -3; dy <= 3; dy++) {
      for (let dx = -3; dx <= 3; dx++) {
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        if (at(cx + dx, cy + dy) !== (ring !== 2)) throw new Error(`finder pattern at ${cx},${cy}`);
      }
    }
  }
  // The format information, both copies: 15 bits, masked with 101010000010010, BCH(15, 5).
  const first = [[8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8], [7, 8],
    [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8]];
  const second = [...Array(8)].map((_, i) => [size - 1 - i, 8])
    .concat([...Array(7)].map((_, i) => [8, size - 7 + i]));
  const word = (cells) => cells.reduce((acc, [x, y], i) => acc | (at(x, y) ? 1 << i : 0), 0) ^ 0x5412;
  const format = word(first);
  if (format !== word(second)) throw new Error('the two copies of the format information differ');
  let rem = format >> 10;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >> 9) * 0x537);
  if (((format >> 10) << 10 | rem) !== format) throw new Error('format information: bad BCH code');
  const level = LEVELS[format >> 13];
  const mask = (format >> 10) & 7;
  // Function patterns, to skip: finders with separators and format areas, timing, alignment,
  // version information (7 and up).
  const fn = Array.from({ length: size }, () => Array(size).fill(false));
  const mark = (x0, y0, w, h) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) fn[y][x] = true;
  };
  mark(0, 0, 9, 9); mark(size - 8, 0, 8, 9); mark(0, size - 8, 9, 8);
  mark(6, 0, 1, size); mark(0, 6, size, 1);
  const { align, ec, blocks } = TABLES.get(`${version} ${level}`);
  for (const cx of align) {
    for (const cy of align) {
      const last = align[align.length - 1];
      if ((cx === 6 && cy === 6) || (cx === 6 && cy === last) || (cx === last && cy === 6)) continue;
      mark(cx - 2, cy - 2, 5, 5);
    }
  }
  if (version >= 7) { mark(size - 11, 0, 3, 6); mark(0, size - 11, 6, 3); }
  // The bits, in two-module columns from the right, up then down, unmasked.
  const bits = [];
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let i = 0; i < size; i++) {
      const y = upward ? size - 1 - i : i;
      for (const x of [right, right - 1]) if (!fn[y][x]) bits.push(at(x, y) !== MASKS[mask](x, y));
    }
    upward = !upward;
  }
  const codewords = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => a * 2 + b, 0));
  // De-interleaved: the first blocks are one data codeword shorter than the last ones.
  const total = codewords.length;
  const short = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ec;
  const data = Array.from({ length: blocks }, () => []);
  let k = 0;
  for (let i = 0; i <= shortData; i++) {
    for (let b = 0; b < blocks; b++) if (i < shortData || b >= short) data[b].push(codewords[k++]);
  }
  const stream = data.flat().flatMap((c) => [...Array(8)].map((_, i) => (c >> (7 - i)) & 1));
  const read = (from, n) => stream.slice(from, from + n).reduce((a, b) => a * 2 + b, 0);
  if (read(0, 4) !== 0b0100) throw new Error(`mode ${read(0, 4)}, not byte mode`);
  const countBits = version <= 9 ? 8 : 16;
  const length = read(4, countBits);
  const bytes = [...Array(length)].map((_, i) => read(4 + countBits + 8 * i, 8));
  return { level, mask, version, text: Buffer.from(bytes).toString('utf8') };
}
