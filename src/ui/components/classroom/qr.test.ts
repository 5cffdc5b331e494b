import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { modulesOf, qrPath } from './qr';

/** The path drawn as pixels (4 per module, dark on white) and read back by an independent decoder (jsQR). */
function decode(text: string): string | null {
  const p = qrPath(text);
  const m = modulesOf(p);
  const px = 4;
  const w = p.size * px;
  const rgba = new Uint8ClampedArray(w * w * 4);
  for (let y = 0; y < w; y++)
    for (let x = 0; x < w; x++) {
      const v = m[Math.floor(y / px)]![Math.floor(x / px)] ? 0 : 255;
      rgba.set([v, v, v, 255], (y * w + x) * 4);
    }
  return jsQR(rgba, w, w)?.data ?? null;
}

describe('the code slips\' QR code', () => {
  it('decodes, with an independent reader, to the address students open', () => {
    for (const url of ['http://192.168.1.20:4173/#student', 'http://teacher-laptop.local:4173/#student', 'https://school.example/lab/#student']) expect(decode(url)).toBe(url);
  });
  it('has its quiet zone: no dark module within 4 of the edge', () => {
    const p = qrPath('http://192.168.1.20:4173/#student');
    const m = modulesOf(p);
    for (let y = 0; y < p.size; y++) for (let x = 0; x < p.size; x++) if (x < 4 || y < 4 || x >= p.size - 4 || y >= p.size - 4) expect(m[y]![x]).toBe(false);
  });
});
