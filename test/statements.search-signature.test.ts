import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fold, signatureOf } from '../server/lib/search-signature.js';

/** Whether `outer` holds every bit of `inner`, as the page's SQL checks it. */
const holds = (outer: readonly [number, number], inner: readonly [number, number]) =>
  (BigInt(outer[0]) & BigInt(inner[0])) === BigInt(inner[0]) &&
  (BigInt(outer[1]) & BigInt(inner[1])) === BigInt(inner[1]);

// Text as statements hold it: Portuguese words with accents, cedillas, digits, punctuation, other scripts.
const letters = fc.constantFrom(...'abcçdeéêfghiíjklmnoóôõpqrstuúvwxyzÁÂÃÇÉÍÓÚæøßœ0123456789-–./&'.split(''));
const word = fc.array(letters, { minLength: 1, maxLength: 12 }).map((l) => l.join(''));
const text = fc.array(word, { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));

describe('search signatures', () => {
  it('when a searched word is found inside a document (folded as a search folds), then the document’s signature holds the word’s', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (document, start, length) => {
        const folded = fold(document);
        const from = start % folded.length;
        const found = folded.slice(from, from + 3 + (length % 10)).split(' ')[0]!;
        fc.pre(found.length >= 3);
        expect(holds(signatureOf(document), signatureOf(found))).toBe(true);
      }),
      { numRuns: 2_000, seed: 42 },
    );
  });

  it('when several words are searched, then their signature is every word’s together', () => {
    const both = signatureOf('reembolso gestor');
    expect(holds(both, signatureOf('reembolso'))).toBe(true);
    expect(holds(both, signatureOf('gestor'))).toBe(true);
    expect(holds(signatureOf('Reembolso aprovado pelo gestor'), both)).toBe(true);
  });

  it('when letters PostgreSQL spells otherwise are in a document, then both spellings pass its signature', () => {
    const document = signatureOf('Smørrebrød Straße Æther ﬁnanças ＡＢＣ');
    for (const found of ['smorrebrod', 'smørrebrød', 'strasse', 'straße', 'aether', 'æther', 'financas', 'abc'])
      expect(holds(document, signatureOf(found)), found).toBe(true);
  });

  it('when a word is not in a document, then the signature mostly rules it out (few false positives)', () => {
    const document = signatureOf('PIX ENVIADO Padaria São João Almoço com cliente Alimentação');
    const absent = ['reembolso', 'gestor', 'atlas', 'hotel', 'farmacia', 'combustivel', 'passagem', 'aluguel'];
    const passing = absent.filter((w) => holds(document, signatureOf(w)));
    expect(passing.length).toBeLessThanOrEqual(1);
  });
});
