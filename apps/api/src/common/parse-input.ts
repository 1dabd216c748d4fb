import { InvalidInputError } from '@podium/domain';
import type { z } from 'zod';

/**
 * Validates input at the edge with a zod schema; the first issue becomes an InvalidInputError
 * whose `field` is the issue's path (`metrics.1.key`). With `plain`, the message is the issue's
 * own words (written for people, e.g. "The close date must be after the open date") and the path
 * stays in `extensions.field` only.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, prefix?: string, plain = false): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (!issue) throw new InvalidInputError(prefix ?? 'invalid input', prefix ? { field: prefix } : {}); // zod reports at least one issue on failure
  const field = [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.');
  throw new InvalidInputError(field && !plain ? `${field}: ${issue.message}` : issue.message, field ? { field } : {});
}
