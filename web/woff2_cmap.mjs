// The characters a WOFF2 font file really draws, read from its cmap table. A @fontsource subset's
// unicode-range is not that: Noto Serif TC's ranges name U+6B69 (歩), which none of its files
// draws, so a face chosen by range alone was a .notdef box.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';

// WOFF2's table directory names the common tables by their index in this list (its 5.2).
const knownTags = ('cmap head hhea hmtx maxp name OS/2 post cvt_ fpgm glyf loca prep CFF_ VORG EBDT EBLC gasp hdmx kern ' +
  'LTSH PCLT VDMX vhea vmtx BASE GDEF GPOS GSUB EBSC JSTF MATH CBDT CBLC COLR CPAL SVG_ sbix acnt avar bdat bloc bsln ' +
  'cvar fdsc feat fmtx fvar gvar hsty just lcar mort morx opbd prop trak Zapf Silf Glat Gloc Feat Sill').split(' ').map((t) => t.replace('_', ' '));

export function drawnCodePoints(file) {
  const font = readFileSync(file);
  if (font.toString('latin1', 0, 4) !== 'wOF2') throw new Error(`${file}: not a WOFF2 font`);
  let at = 48;
  const base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = font[at++];
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    throw new Error(`${file}: a bad table length`);
  };
  // The tables lie one after the other, unpadded, in the directory's order.
  let offset = 0, cmap;
  for (let i = font.readUInt16BE(12); i > 0; i--) {
    const flags = font[at++];
    const tag = (flags & 0x3f) === 0x3f ? font.toString('latin1', at, (at += 4)) : knownTags[flags & 0x3f];
    let length = base128();
    const version = flags >> 6;
    if (['glyf', 'loca'].includes(tag) ? version === 0 : version !== 0) length = base128();
    if (tag === 'cmap') cmap = offset;
    offset += length;
  }
  if (cmap === undefined) throw new Error(`${file}: no cmap table`);
  const data = brotliDecompressSync(font.subarray(at));
  const drawn = new Set();
  for (let i = 0; i < data.readUInt16BE(cmap + 2); i++) {
    const table = cmap + data.readUInt32BE(cmap + 8 + i * 8);
    const format = data.readUInt16BE(table);
    if (format === 4) {
      const segments = data.readUInt16BE(table + 6) / 2;
      const ends = table + 14, starts = ends + 2 * segments + 2, deltas = starts + 2 * segments, ranges = deltas + 2 * segments;
      for (let s = 0; s < segments; s++) {
        const start = data.readUInt16BE(starts + 2 * s), end = data.readUInt16BE(ends + 2 * s);
        const delta = data.readUInt16BE(deltas + 2 * s), range = data.readUInt16BE(ranges + 2 * s);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          let glyph = range === 0 ? c : data.readUInt16BE(ranges + 2 * s + range + 2 * (c - start));
          if (range === 0 || glyph !== 0) glyph = (glyph + delta) & 0xffff;
          if (glyph !== 0) drawn.add(c);
        }
      }
    } else if (format === 12) {
      for (let g = 0; g < data.readUInt32BE(table + 12); g++) {
        const group = table + 16 + g * 12;
        const first = data.readUInt32BE(group + 8);
        for (let c = data.readUInt32BE(group); c <= data.readUInt32BE(group + 4); c++)
          if (first + c - data.readUInt32BE(group) !== 0) drawn.add(c);
      }
    }
  }
  return drawn;
}
