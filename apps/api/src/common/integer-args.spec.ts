import { InvalidInputError } from '@podium/domain';
import { assertIntegerArg } from './integer-args';

describe('assertIntegerArg', () => {
  it('accepts integers in the range, bounds included', () => {
    expect(() => assertIntegerArg('limit', 1, 1, 1000)).not.toThrow();
    expect(() => assertIntegerArg('limit', 1000, 1, 1000)).not.toThrow();
    expect(() => assertIntegerArg('offset', 0, 0)).not.toThrow();
    expect(() => assertIntegerArg('offset', 1e9, 0)).not.toThrow();
  });

  it.each([
    ['limit', 0, 1, 1000, 'limit must be an integer between 1 and 1000'],
    ['limit', 1001, 1, 1000, 'limit must be an integer between 1 and 1000'],
    ['limit', 2.5, 1, 1000, 'limit must be an integer between 1 and 1000'],
    ['offset', -1, 0, Infinity, 'offset must be a non-negative integer'],
    ['offset', Number.NaN, 0, Infinity, 'offset must be a non-negative integer'],
    ['page', 0, 1, Infinity, 'page must be an integer ≥ 1'],
  ])('refuses %s = %p with INVALID_INPUT naming the field', (field, value, min, max, message) => {
    let error: unknown;
    try {
      assertIntegerArg(field, value, min, max);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ message, details: { field } });
  });
});
