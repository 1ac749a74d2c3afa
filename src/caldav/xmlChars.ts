/**
 * The two character rewrites XML asks of a reader (§2.11 line ends, §3.3.3 white space in
 * attribute values), at a constant cost per character whatever the body holds. A regular
 * expression's replace costs per match, not per character: a megabyte of carriage returns
 * took it 100–200 ms, a megabyte of tabs in one attribute 150–400 ms. Here the text is copied
 * once into code units (one byte each when every character fits, as in almost every body, so
 * the result is a one-byte string again), rewritten in place and decoded (a few ms a megabyte).
 */

type Units = Uint8Array | Uint16Array;

// eslint-disable-next-line no-control-regex -- any character past Latin-1
const WIDE = /[^\u0000-\u00ff]/;

/** `s` rewritten by `edit` over its code units; `edit` answers how many it kept. */
function rewrite(s: string, edit: (u: Units) => number): string {
  if (!WIDE.test(s)) {
    const buf = Buffer.from(s, 'latin1');
    return buf.toString('latin1', 0, edit(buf));
  }
  const buf = Buffer.from(s, 'utf16le');
  const n = edit(new Uint16Array(buf.buffer, buf.byteOffset, buf.length >> 1));
  return buf.toString('utf16le', 0, n * 2);
}

/** Every CR LF and lone CR read as one LF (XML 1.0 §2.11). */
export function lineFeeds(s: string): string {
  if (!s.includes('\r')) return s;
  return rewrite(s, (u) => {
    let j = 0;
    for (let i = 0; i < u.length; i++) {
      const c = u[i];
      if (c === 0x0d) {
        u[j++] = 0x0a;
        if (u[i + 1] === 0x0a) i++;
      } else u[j++] = c;
    }
    return j;
  });
}

/** Tabs and line feeds of an attribute value read as spaces (§3.3.3; CRs are LFs by now). */
export function attributeSpaces(s: string): string {
  if (!s.includes('\t') && !s.includes('\n')) return s;
  return rewrite(s, (u) => {
    for (let i = 0; i < u.length; i++) {
      const c = u[i];
      if (c === 0x09 || c === 0x0a) u[i] = 0x20;
    }
    return u.length;
  });
}
