import { InvalidInputError } from '@podium/domain';
import { assertStorable, findUnstorable } from './storable-text';

describe('findUnstorable', () => {
  it('accepts ordinary text, emoji (a surrogate pair) and other control characters', () => {
    expect(findUnstorable('plain text\twith tab')).toBeNull();
    expect(findUnstorable('smile 😀 ok')).toBeNull();
  });
  it('finds a NUL on its line', () => {
    expect(findUnstorable('a\nb\u0000c')).toEqual({ index: 3, line: 2, reason: 'contains a NUL character (U+0000), which cannot be stored' });
  });
  it('finds lone high and low surrogates, and a high surrogate at the very end', () => {
    expect(findUnstorable('x\ud800y')?.reason).toMatch(/lone UTF-16 surrogate \(\\ud800\)/);
    expect(findUnstorable('x\udc00')?.index).toBe(1);
    expect(findUnstorable('ok\n\n\ud83d')).toMatchObject({ line: 3, index: 4 });
  });
});

describe('assertStorable', () => {
  it('names the field path and the line inside nested inputs', () => {
    let error: unknown;
    try {
      assertStorable({ metrics: [{ key: 'ok' }, { key: 'b\n\u0000' }] }, 'input');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).message).toBe('input.metrics.1.key on line 2 contains a NUL character (U+0000), which cannot be stored (character 3)');
    expect((error as InvalidInputError).details).toEqual({ field: 'input.metrics.1.key', line: 2 });
  });
  it('checks object keys and ignores buffers', () => {
    expect(() => assertStorable({ ['k\ud800']: 1 }, 'json')).toThrow(/json \(a key\)/);
    expect(() => assertStorable(Buffer.from([0, 0, 0]), 'file')).not.toThrow();
  });
});
