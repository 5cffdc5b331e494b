/**
 * QR codes for the classroom's code slips: the address students open, as an SVG path of dark
 * modules. The encoding is the `uqr` package's (an ISO/IEC 18004 encoder with no dependencies);
 * this file only turns its module matrix into a path, so the page renders it as ordinary SVG with
 * no markup from outside (no {@html}).
 */
import { encode } from 'uqr';

export interface QrPath {
  /** Modules per side, the quiet zone included. */
  size: number;
  /** One `M x y h1 v1 h-1 z` square per dark module. */
  d: string;
}

/** The QR code of `text` (error correction M, a 4-module quiet zone as the standard asks). */
export function qrPath(text: string): QrPath {
  const qr = encode(text, { ecc: 'M', border: 4 });
  let d = '';
  qr.data.forEach((row, y) => row.forEach((dark, x) => {
    if (dark) d += `M${x} ${y}h1v1h-1z`;
  }));
  return { size: qr.size, d };
}

/** The dark modules a path draws (for tests: the inverse of qrPath's drawing). */
export function modulesOf(p: QrPath): boolean[][] {
  const m = Array.from({ length: p.size }, () => Array<boolean>(p.size).fill(false));
  for (const x of p.d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) m[Number(x[2])]![Number(x[1])] = true;
  return m;
}
