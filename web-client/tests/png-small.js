// Development aid: makes a screenshot for the docs small. Chromium writes true-colour PNGs; the
// page is a few flat colours and their anti-aliased edges, so 256 colours (the most used, each
// other colour drawn as its nearest) keep it as it looks at about a third of the size.
// Reads and writes 8-bit RGB or RGBA PNGs, not interlaced (what Chromium writes).

import { readFileSync, writeFileSync } from 'node:fs';
import { inflateSync, deflateSync, crc32 } from 'node:zlib';

/** The pixels of a PNG: width, height, RGB(A) bytes and how many a pixel. @param {Buffer} png */
function decode(png) {
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0 || (data[9] !== 2 && data[9] !== 6)) throw new Error('only 8-bit RGB or RGBA, not interlaced');
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const kind = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][kind];
      out[y * stride + x] = (row[x] + pred) & 255;
    }
  }
  return { width, height, channels, pixels: out };
}

/** A PNG chunk. @param {string} type @param {Buffer} data */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The picture in 256 colours at most, as an indexed PNG. @param {ReturnType<typeof decode>} img */
function encodeIndexed({ width, height, channels, pixels }) {
  const n = width * height;
  const key = (/** @type {number} */ i) => ((pixels[i * channels] >> 3) << 10) | ((pixels[i * channels + 1] >> 3) << 5) | (pixels[i * channels + 2] >> 3);
  /** How often each 15-bit colour occurs, and the sum of its exact colours. */
  const count = new Map();
  for (let i = 0; i < n; i++) {
    const k = key(i);
    const c = count.get(k) ?? [0, 0, 0, 0];
    c[0]++;
    c[1] += pixels[i * channels];
    c[2] += pixels[i * channels + 1];
    c[3] += pixels[i * channels + 2];
    count.set(k, c);
  }
  const palette = [...count.entries()].sort((a, b) => b[1][0] - a[1][0]).slice(0, 256).map(([k, c]) => ({ k, rgb: [c[1] / c[0], c[2] / c[0], c[3] / c[0]].map(Math.round) }));
  /** @type {Map<number, number>} */
  const index = new Map();
  const nearest = (/** @type {number} */ k) => {
    let got = index.get(k);
    if (got !== undefined) return got;
    const r = ((k >> 10) & 31) << 3;
    const g = ((k >> 5) & 31) << 3;
    const b = (k & 31) << 3;
    let best = 0;
    let dist = Infinity;
    palette.forEach((p, i) => {
      const d = (p.rgb[0] - r) ** 2 + (p.rgb[1] - g) ** 2 + (p.rgb[2] - b) ** 2;
      if (d < dist) {
        dist = d;
        best = i;
      }
    });
    index.set(k, best);
    return best;
  };
  palette.forEach((p, i) => index.set(p.k, i));
  const rows = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = nearest(key(y * width + x));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 3;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from(palette.flatMap((p) => p.rgb))),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Rewrites a PNG file in 256 colours; returns its sizes before and after. @param {string} path */
export function smallPng(path) {
  const before = readFileSync(path);
  const after = encodeIndexed(decode(before));
  writeFileSync(path, after);
  return [before.length, after.length];
}
