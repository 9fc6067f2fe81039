#!/usr/bin/env node
/**
 * Draws the agent app's icons (web/agent/public/icons/, committed): a white
 * speech bubble on the app's accent blue, as PNGs made here with node:zlib
 * only (no image library), antialiased by 4×4 supersampling.
 *   icon-192.png, icon-512.png   rounded square, transparent corners ("any")
 *   maskable-512.png             full bleed, the bubble inside the 80 % safe zone ("maskable")
 *   favicon-32.png               the tab's icon (also /favicon.ico)
 * Run again after changing the drawing: node scripts/make-icons.mjs
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const OUT = path.resolve(import.meta.dirname, '../web/agent/public/icons');
const ACCENT = [0x2f, 0x6f, 0xed];
const WHITE = [0xff, 0xff, 0xff];

/** Whether (x, y), in units of the icon's side (0..1), is inside a rounded rectangle. */
function inRoundRect(x, y, left, top, right, bottom, r) {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + r), right - r);
  const cy = Math.min(Math.max(y, top + r), bottom - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function inTriangle(x, y, [ax, ay], [bx, by], [cx, cy]) {
  const s = (px, py, qx, qy, rx, ry) => (px - rx) * (qy - ry) - (qx - rx) * (py - ry);
  const d1 = s(x, y, ax, ay, bx, by);
  const d2 = s(x, y, bx, by, cx, cy);
  const d3 = s(x, y, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** The colour at (x, y) in 0..1, or null (transparent). `scale` shrinks the bubble about the centre (maskable). */
function colourAt(x, y, { fullBleed, scale }) {
  if (!fullBleed && !inRoundRect(x, y, 0, 0, 1, 1, 0.22)) return null;
  const u = 0.5 + (x - 0.5) / scale;
  const v = 0.5 + (y - 0.5) / scale;
  const bubble = inRoundRect(u, v, 0.18, 0.22, 0.82, 0.68, 0.12) || inTriangle(u, v, [0.3, 0.6], [0.46, 0.66], [0.26, 0.82]);
  if (!bubble) return ACCENT;
  for (const dx of [0.35, 0.5, 0.65]) if ((u - dx) ** 2 + (v - 0.45) ** 2 <= 0.045 ** 2) return ACCENT;
  return WHITE;
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, options) {
  const S = 4;
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let py = 0; py < size; py++) {
    raw[py * (size * 4 + 1)] = 0;
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < S; sy++)
        for (let sx = 0; sx < S; sx++) {
          const c = colourAt((px + (sx + 0.5) / S) / size, (py + (sy + 0.5) / S) / size, options);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      const o = py * (size * 4 + 1) + 1 + px * 4;
      raw[o] = a ? Math.round(r / a) : 0;
      raw[o + 1] = a ? Math.round(g / a) : 0;
      raw[o + 2] = a ? Math.round(b / a) : 0;
      raw[o + 3] = Math.round((a / (S * S)) * 255);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(OUT, { recursive: true });
const icons = [
  ['icon-192.png', 192, { fullBleed: false, scale: 1 }],
  ['icon-512.png', 512, { fullBleed: false, scale: 1 }],
  ['maskable-512.png', 512, { fullBleed: true, scale: 0.78 }],
  ['favicon-32.png', 32, { fullBleed: false, scale: 1.1 }],
];
for (const [name, size, options] of icons) {
  const file = path.join(OUT, name);
  fs.writeFileSync(file, png(size, options));
  console.log(`${path.relative(process.cwd(), file)}: ${size}×${size}`);
}
