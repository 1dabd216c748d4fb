/**
 * The key under which a user, team or system name is unique: Unicode NFKC (so `ｆｕｌｌ` and
 * `full`, `ﬁ` and `fi` are one name), then lower case (so `Alice` and `alice` are one name).
 * The database enforces the same key with unique expression indexes on
 * `lower(normalize(name, NFKC))` (migration 20261125140000), so no check-then-insert race lets a
 * look-alike in; repositories look names up with that SQL expression, and this function is
 * for the API's own comparisons (duplicate members in one request, sign-in throttle keys).
 * @example nameKey('Ａlice') // 'alice'
 */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}
