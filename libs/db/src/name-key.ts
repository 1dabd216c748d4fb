/**
 * The key under which a user, team or system name is unique: Unicode NFKC (so `ｆｕｌｌ` and
 * `full`, `ﬁ` and `fi` are one name), lower case (so `Alice` and `alice` are one name) and runs
 * of white space as one space. Stored beside the name in a `name_key` column with a unique
 * index, so the database, not a check-then-insert, refuses a look-alike.
 * @example nameKey('  Ａlice   Team ') // 'alice team'
 */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}
