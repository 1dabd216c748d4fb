import { nameKey } from './name-key';

describe('nameKey (the unique key of a name)', () => {
  it('is one key for case, width and compatibility variants', () => {
    // NFKC maps U+FF41… (full-width) to ASCII and U+2160 ROMAN NUMERAL ONE to "I".
    expect(nameKey('Alice')).toBe('alice');
    expect(nameKey('ａｌｉｃｅ')).toBe('alice');
    expect(nameKey('ALICE')).toBe('alice');
    expect(nameKey('Team Ⅰ')).toBe('team i');
  });

  it('keeps different names apart', () => {
    expect(nameKey('alice')).not.toBe(nameKey('alicia'));
  });
});
