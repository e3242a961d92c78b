// A statement row's search signature: a 104-bit Bloom filter of the trigrams of its search document
// (search.ts), folded as a search folds (lower case, no accents), stored in two integer columns of 52
// bits each (every value a safe JavaScript integer, read back exactly by either store's driver)
// beside the row's place in the date order (migration 0032's indexes). A page of a search walks that
// index and reads the row itself only where the signature holds every trigram of every word: about
// the matches, instead of every row walked. A signature never decides a match, the row's text does,
// so a row without one (NULL: written by a path that does not compute it, or its text changed since)
// is only read, never missed.

/** Lower case, without accents: how both sides of a search compare. */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

// Letters that PostgreSQL's unaccent spells as others and no normalization decomposes: their
// trigrams are set under both spellings, so the signature holds whatever either store's fold makes
// of the text.
const SPELLED: Record<string, string> = { æ: 'ae', œ: 'oe', ø: 'o', ß: 'ss', đ: 'd', ł: 'l', þ: 'th', ð: 'd', ı: 'i' };
const SPELLED_LETTER = new RegExp(`[${Object.keys(SPELLED).join('')}]`);
const SPELLED_LETTERS = new RegExp(SPELLED_LETTER.source, 'g');

/** Bits per column. */
const HALF = 52;

/** A signature: its low and high 52 bits. */
type Signature = readonly [number, number];

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

function addTrigrams(text: string, bits: [bigint, bigint]): void {
  for (let i = 0; i + 3 <= text.length; i += 1) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    // A searched word holds no space: neither do the trigrams it is looked up by.
    if (isSpace(a) || isSpace(b) || isSpace(c)) continue;
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    const bit = ((h ^ (h >>> 12)) >>> 0) % (2 * HALF);
    if (bit < HALF) bits[0] |= 1n << BigInt(bit);
    else bits[1] |= 1n << BigInt(bit - HALF);
  }
}

/** The signature of a text (a row's search document, or a search's words joined by spaces). */
export function signatureOf(text: string): Signature {
  const bits: [bigint, bigint] = [0n, 0n];
  const folded = fold(text);
  addTrigrams(folded, bits);
  // PostgreSQL's spelling: compatibility forms decomposed too (ligatures, full-width letters), and
  // the letters it spells as others.
  let spelled = fold(folded.normalize('NFKD'));
  if (SPELLED_LETTER.test(spelled)) spelled = spelled.replace(SPELLED_LETTERS, (l) => SPELLED[l]!);
  if (spelled !== folded) addTrigrams(spelled, bits);
  return [Number(bits[0]), Number(bits[1])];
}
