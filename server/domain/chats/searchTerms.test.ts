/** The words of a search, the store queries made of them, and the excerpts with their matches marked. */
import { describe, expect, it } from 'vitest';
import { fieldExcerpt, fts5Query, messageExcerpt, parseSearch, tsQuery, visitorFtsQuery } from './searchTerms.js';

describe('search terms', () => {
  it('reads words, phrases and phone digits; the queries carry only letters and digits', () => {
    expect(parseSearch('  Refund  kettle! ')).toMatchObject({
      words: ['refund', 'kettle'],
      phrase: false,
      prefix: false,
      text: 'refund  kettle!',
      digits: null,
    });
    // Whole words; only a short last word (still being typed) is a prefix.
    expect(fts5Query(parseSearch('refund "x" OR kettle*'))).toBe('"refund" AND "x" AND "or" AND "kettle"');
    expect(fts5Query(parseSearch('refund kett'))).toBe('"refund" AND "kett"*');
    expect(fts5Query(parseSearch('"blue kettle"'))).toBe('"blue kettle"');
    expect(fts5Query(parseSearch('"blue ket"'))).toBe('"blue ket"*');
    expect(tsQuery(parseSearch('"blue kettle"'))).toBe('blue <-> kettle');
    expect(tsQuery(parseSearch("it's & me"))).toBe('it & s & me:*');
    expect(parseSearch('+1 (555) 010-0199').digits).toBe('15550100199');
    expect(visitorFtsQuery(parseSearch('ri"ta'))).toBe('{name email} : "ri""ta"');
    expect(visitorFtsQuery(parseSearch('ab'))).toBeNull();
  });

  it('cuts an excerpt around the first match, the matching words marked', () => {
    const long = `${'word '.repeat(30)}here is the Refund we talked about ${'tail '.repeat(40)}`;
    const parts = messageExcerpt(long, parseSearch('refund'))!;
    expect(parts[0]).toEqual({ text: '…', hit: false });
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['Refund']);
    expect(parts[parts.length - 1]).toEqual({ text: '…', hit: false });
    expect(
      messageExcerpt('Crème brûlée please', parseSearch('creme brulee'))
        ?.filter((p) => p.hit)
        .map((p) => p.text),
    ).toEqual(['Crème', 'brûlée']);
    // Whole words, but for a short last word.
    expect(messageExcerpt('refunded kettles', parseSearch('refund kett'))).toBeNull();
    expect(
      messageExcerpt('refund for kettles', parseSearch('refund kett'))
        ?.filter((p) => p.hit)
        .map((p) => p.text),
    ).toEqual(['refund', 'kettles']);
    // Every word must be in the message (unless it is a phrase's), else there is no excerpt.
    expect(messageExcerpt('only refund here', parseSearch('refund kettle'))).toBeNull();
  });

  it('marks the part of a field that matches', () => {
    expect(fieldExcerpt('Rita@Shop.example', parseSearch('shop'), false)).toEqual([
      { text: 'Rita@', hit: false },
      { text: 'Shop', hit: true },
      { text: '.example', hit: false },
    ]);
    expect(fieldExcerpt('+1 555 0100', parseSearch('5550'), true)).toEqual([
      { text: '+1 ', hit: false },
      { text: '555 0', hit: true },
      { text: '100', hit: false },
    ]);
    expect(fieldExcerpt(null, parseSearch('x'), false)).toBeNull();
  });
});
