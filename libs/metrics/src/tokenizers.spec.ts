// Expected outputs are derived by hand from sacreBLEU 2.x's tokenizer rules (tokenizer_13a.py,
// tokenizer_re.py, tokenizer_intl.py, tokenizer_zh.py, tokenizer_char.py) and Python's str.split();
// each case names the rule that produces it.
import { pySplit, tokenize13a, tokenizeChar, tokenizeIntl, tokenizeNone, tokenizeZh } from './index';
import { defined } from '../../../test/support/defined';
import { mulberry32 } from '@podium/ranking'; // the project's one seeded PRNG
import { spans13a, type TokenSpans } from './tokenizers';

describe('pySplit (Python str.split())', () => {
  it('splits on Unicode whitespace Python recognises, including NBSP, em space, ideographic space and \\x1c', () => {
    expect(pySplit('\u00a0a\u2003b\u3000c\x1cd\u0085e ')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('keeps zero-width space and BOM inside tokens, as Python does (JS \\s would split on BOM)', () => {
    expect(pySplit('a\u200bb c\ufeffd')).toEqual(['a\u200bb', 'c\ufeffd']);
  });
  it('returns no tokens for an empty or blank line', () => {
    expect(pySplit('')).toEqual([]);
    expect(pySplit(' \t ')).toEqual([]);
  });
});

describe('13a tokenizer (sacreBLEU default, mteval-v13a)', () => {
  it('splits URL punctuation : / ? = but keeps hyphens and digit-grouped numbers', () => {
    expect(tokenize13a('Visit https://example.com/a-b?x=1,000.')).toBe('Visit https : / / example . com / a-b ? x = 1,000 .');
  });
  it('keeps periods and commas between digits and splits a dash after a digit', () => {
    expect(tokenize13a('1,000.50 and 3.14, 2-3')).toBe('1,000.50 and 3.14 , 2 - 3');
  });
  it('separates a sentence-final period after a number thanks to the padding spaces', () => {
    expect(tokenize13a('Year 1990.')).toBe('Year 1990 .');
  });
  it('keeps word-internal hyphens but splits year ranges', () => {
    expect(tokenize13a('state-of-the-art e-mail 2020-2021')).toBe('state-of-the-art e-mail 2020 - 2021');
  });
  it('unescapes &quot; &amp; &lt; &gt; and splits the resulting symbols', () => {
    expect(tokenize13a('Tom &amp; Jerry &quot;hi&quot; &lt;b&gt;')).toBe('Tom & Jerry " hi " < b >');
  });
  it('removes <skipped> markers', () => {
    expect(tokenize13a('a <skipped> b')).toBe('a b');
  });
  it('leaves CJK and Thai text untouched (no ASCII punctuation to split)', () => {
    expect(tokenize13a('我爱北京。')).toBe('我爱北京。');
    expect(tokenize13a('สวัสดีครับ')).toBe('สวัสดีครับ');
  });
  it('splits ASCII punctuation after an emoji without breaking the surrogate pair', () => {
    expect(tokenize13a('Great😀!')).toBe('Great😀 !');
  });
  it('keeps a combining accent with its base letter and splits the following period', () => {
    expect(tokenize13a('cafe\u0301.')).toBe('cafe\u0301 .');
  });
  it('turns an empty line into no tokens', () => {
    expect(tokenize13a('')).toBe('');
    expect(tokenize13a('   ')).toBe('');
  });
  it("does not split apostrophes (0x27 is outside mteval's class)", () => {
    expect(tokenize13a("don't stop")).toBe("don't stop");
  });
});

describe('intl tokenizer (mteval-v14 international)', () => {
  it('splits Unicode punctuation and currency symbols but not a decimal separator', () => {
    expect(tokenizeIntl('Preis: 1.000€.')).toBe('Preis : 1.000 € .');
  });
  it('keeps a period after a final number (no padding, as mteval-v14)', () => {
    expect(tokenizeIntl('in 2019.')).toBe('in 2019.');
  });
  it('splits guillemets, dashes and hyphens (all \\p{P})', () => {
    expect(tokenizeIntl('«Bonjour»—dit-il.')).toBe('« Bonjour » — dit - il .');
  });
  it('separates emoji (\\p{So}) as whole code points', () => {
    expect(tokenizeIntl('Great😀!')).toBe('Great 😀 !');
  });
  it('keeps thousands separators and splits a currency sign', () => {
    expect(tokenizeIntl('$5 or 1,234,567.89')).toBe('$ 5 or 1,234,567.89');
  });
  it('keeps Thai combining vowels with their consonants and splits the final !', () => {
    expect(tokenizeIntl('สวัสดี ครับ!')).toBe('สวัสดี ครับ !');
  });
  it('splits the CJK full stop (\\p{Po})', () => {
    expect(tokenizeIntl('我爱北京。')).toBe('我爱北京 。');
  });
  it('turns an empty line into no tokens', () => {
    expect(tokenizeIntl('')).toBe('');
  });
});

describe('zh tokenizer', () => {
  it('isolates every Chinese character and CJK punctuation, leaving Latin words whole', () => {
    expect(tokenizeZh('我爱北京。ok')).toBe('我 爱 北 京 。 ok');
  });
  it("isolates the em dash and the euro sign: sacreBLEU's '\\u20000' range really is U+2001–U+2A6D", () => {
    expect(tokenizeZh('A—B')).toBe('A — B');
    expect(tokenizeZh('5€')).toBe('5 €');
  });
  it('does not isolate CJK Extension B characters (the same Python string-range quirk)', () => {
    expect(tokenizeZh('a𠀀b')).toBe('a𠀀b');
  });
  it('isolates full-width Latin letters (U+FF00–U+FFEF)', () => {
    expect(tokenizeZh('ＡＢ')).toBe('Ａ Ｂ');
  });
  it('keeps a final period on a number because, unlike 13a, it adds no padding', () => {
    expect(tokenizeZh('Year 1990.')).toBe('Year 1990.');
  });
  it('turns an empty line into no tokens', () => {
    expect(tokenizeZh('  ')).toBe('');
  });
});

describe('char tokenizer', () => {
  it('makes every non-space code point a token', () => {
    expect(tokenizeChar('ab c')).toBe('a b c');
  });
  it('keeps surrogate pairs whole and combining marks separate, as Python iterates code points', () => {
    expect(tokenizeChar('😀x')).toBe('😀 x');
    expect(tokenizeChar('e\u0301')).toBe('e \u0301');
  });
  it('turns an empty line into no tokens', () => {
    expect(tokenizeChar('')).toBe('');
  });
});

describe('none tokenizer', () => {
  it('returns the line unchanged', () => {
    expect(tokenizeNone('a,  b.')).toBe('a,  b.');
  });
});

describe('13a token spans (one scan, no regular expressions)', () => {
  // Random strings from a fixed seed (mulberry32), dense in what 13a's rules look at: digits,
  // periods, commas, dashes, RE_PUNCT characters, Python whitespace, entities, line breaks,
  // non-ASCII and astral characters. Expected: tokenize13a (the regular expressions) then split.
  const pieces = ['1', '0', '9', '.', ',', '-', 'a', 'Z', ' ', '\t', '\u00a0', '\u3000', '\u200b', '(', ')', '"', "'", '/', ':', '?', '$', '@', '~', '`',
    '_', '^', '\\', '&quot;', '&amp;', '&lt;', '<skipped>', '\n', '-\n', 'é', '😀', '\ud800', '.,', '..', '1.5', ',0'];
  it('gives the tokens of tokenize13a on 20,000 random strings', () => {
    const rng = mulberry32(20261124);
    const rand = () => rng.next();
    const spans: TokenSpans = { text: '', starts: new Int32Array(0), ends: new Int32Array(0), count: 0 };
    for (let k = 0; k < 20_000; k++) {
      let line = '';
      const n = Math.floor(rand() * 16);
      for (let i = 0; i < n; i++) line += defined(pieces[Math.floor(rand() * pieces.length)], 'a piece');
      spans.starts = new Int32Array(line.length + 2);
      spans.ends = new Int32Array(line.length + 2);
      spans13a(line, spans);
      const tokens = Array.from({ length: spans.count }, (_, t) => spans.text.slice(spans.starts[t], spans.ends[t]));
      expect([line, tokens]).toEqual([line, pySplit(tokenize13a(line))]);
    }
  });
});
