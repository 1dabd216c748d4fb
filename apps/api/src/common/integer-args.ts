// Integer arguments of paged reads (offset, limit, first): one check and one wording for every resolver and service.
import { InvalidInputError } from '@podium/domain';

/**
 * INVALID_INPUT naming `field` unless `value` is an integer in [min, max] (no upper bound when max
 * is Infinity). Example: `assertIntegerArg('limit', 0, 1, 1000)` throws "limit must be an integer
 * between 1 and 1000".
 */
export function assertIntegerArg(field: string, value: number, min: number, max = Infinity): void {
  if (Number.isInteger(value) && value >= min && value <= max) return;
  const range = max !== Infinity ? `an integer between ${min} and ${max}` : min === 0 ? 'a non-negative integer' : `an integer ≥ ${min}`;
  throw new InvalidInputError(`${field} must be ${range}`, { field });
}
