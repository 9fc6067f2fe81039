/**
 * protocol/links.ts: which parts of a message become links (agent app,
 * transcript mails). Only http(s) and mailto written out; hostile schemes,
 * brackets and punctuation around a link, international hosts.
 */
import { describe, expect, it } from 'vitest';
import { hasRtl, splitLinks } from '../../protocol/links.js';

const links = (text: string) => splitLinks(text).filter((p) => p.href !== undefined);

describe('splitLinks', () => {
  it('keeps the text whole: joined, the parts are the text', () => {
    for (const text of ['', 'no link', 'see https://example.com/a?b=1#c, then (mailto:a@b.co).', 'https://x.org']) {
      expect(
        splitLinks(text)
          .map((p) => p.text)
          .join(''),
      ).toBe(text);
    }
  });

  it('links http and https URLs, the rest stays text', () => {
    expect(splitLinks('Our shop: https://shop.example.com/p/12?x=1#top and http://old.example.org')).toEqual([
      { text: 'Our shop: ' },
      { text: 'https://shop.example.com/p/12?x=1#top', href: 'https://shop.example.com/p/12?x=1#top' },
      { text: ' and ' },
      { text: 'http://old.example.org', href: 'http://old.example.org/' },
    ]);
  });

  it('links mailto with an address, not a bare mailto:', () => {
    expect(links('write to mailto:help@example.com please')).toEqual([{ text: 'mailto:help@example.com', href: 'mailto:help@example.com' }]);
    expect(links('mailto: nobody, mailto:nothing')).toEqual([]);
  });

  it('never links javascript:, data:, vbscript: or file:, in any case and with any disguise', () => {
    const hostile = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'javascript://%0aalert(1)',
      '<a href="javascript:alert(1)">x</a>',
      'xhttps://example.com',
      'https://',
      'http:///nohost',
    ];
    for (const text of hostile) expect(links(text), text).toEqual([]);
    // A scheme hidden before an https URL: only the https URL is a link.
    expect(links('javascript:https://example.com').map((p) => p.href)).toEqual(['https://example.com/']);
    for (const p of links('javascript:alert(1)//https://evil.example/ data:https://x.example')) expect(p.href).toMatch(/^https:\/\//);
  });

  it('never lets markup into a link: < > " end it', () => {
    expect(links('https://example.com/"><script>alert(1)</script>')).toEqual([{ text: 'https://example.com/', href: 'https://example.com/' }]);
    // A quote may be in a URL: the href stays one URL (the app sets it as a property, the mail escapes it).
    expect(links("https://example.com/'onmouseover='alert(1) next")[0].href).toBe("https://example.com/'onmouseover='alert(1)");
  });

  it('leaves out punctuation ending the sentence', () => {
    for (const end of ['.', ',', ';', ':', '!', '?', '...', '!?', '"', "'"]) {
      expect(links(`Look at https://example.com/page${end}`)[0].text).toBe('https://example.com/page');
    }
    expect(links('https://example.com/a.html.')[0].text).toBe('https://example.com/a.html');
  });

  it('keeps brackets the link opened, leaves out those it did not', () => {
    expect(links('(see https://example.com/a)')[0].text).toBe('https://example.com/a');
    expect(links('(see https://example.com/a).')[0].text).toBe('https://example.com/a');
    expect(links('https://en.wikipedia.org/wiki/Mercury_(planet)')[0].text).toBe('https://en.wikipedia.org/wiki/Mercury_(planet)');
    expect(links('(https://en.wikipedia.org/wiki/Mercury_(planet))')[0].text).toBe('https://en.wikipedia.org/wiki/Mercury_(planet)');
    expect(links('[https://example.com/x]')[0].text).toBe('https://example.com/x');
    expect(links('{https://example.com/x}')[0].text).toBe('https://example.com/x');
    expect(links('[[(https://example.com/a[b](c))]]')[0].text).toBe('https://example.com/a[b](c)');
  });

  it('opens an international host in punycode and shows it as written', () => {
    expect(links('https://bücher.example/katalog')).toEqual([{ text: 'https://bücher.example/katalog', href: 'https://xn--bcher-kva.example/katalog' }]);
    expect(links('متجرنا: https://مثال.example/صفحة.')[0]).toEqual({
      text: 'https://مثال.example/صفحة',
      href: 'https://xn--mgbh0fb.example/%D8%B5%D9%81%D8%AD%D8%A9',
    });
  });

  it('links several URLs and keeps a URL glued to text before it as text', () => {
    expect(links('a https://a.example b https://b.example/x c').map((p) => p.text)).toEqual(['https://a.example', 'https://b.example/x']);
    expect(links('réponsehttps://a.example')).toEqual([]);
  });

  it('leaves a very long URL as text', () => {
    expect(links(`https://example.com/${'a'.repeat(3000)}`)).toEqual([]);
  });
});

describe('hasRtl', () => {
  it('sees Arabic and Hebrew, not Latin, Cyrillic or digits', () => {
    expect(hasRtl('مرحبا!')).toBe(true);
    expect(hasRtl('שלום')).toBe(true);
    expect(hasRtl('Hello, Привет 123!')).toBe(false);
  });
});
