import { describeCodePoint, displayNameSchema, findHiddenCharacter } from './display-name';

const userName = displayNameSchema({ field: 'name', noAt: true });
const message = (r: ReturnType<typeof userName.safeParse>) => (r.success ? null : (r.error.issues[0]?.message ?? ''));

describe('display names (user, team, system)', () => {
  // The look-alike names of issue #21; the code points are from the Unicode character database
  // (all general category Cf).
  it.each([
    ['evil\u202Egnp.exe', 'U+202E (RIGHT-TO-LEFT OVERRIDE)'],
    ['Team\u202EAmaet', 'U+202E (RIGHT-TO-LEFT OVERRIDE)'],
    ['alice\u200b', 'U+200B (ZERO WIDTH SPACE)'],
    ['al\u200Dice', 'U+200D (ZERO WIDTH JOINER)'],
    // Inside the name: at either end String.prototype.trim drops U+FEFF as white space.
    ['al\uFEFFice', 'U+FEFF (ZERO WIDTH NO-BREAK SPACE)'],
    ['ali\u2066ce', 'U+2066 (LEFT-TO-RIGHT ISOLATE)'],
    ['ali\u00ADce', 'U+00AD (SOFT HYPHEN)'],
  ])('refuses %j, naming the field and %s', (name, described) => {
    const m = message(userName.safeParse(name));
    expect(m).toContain('name must not contain');
    expect(m).toContain(described);
    expect(m).toContain('Unicode Cf');
  });

  it('refuses control characters and names the code point', () => {
    expect(message(userName.safeParse('a\u0007b'))).toBe('name must not contain U+0007, a control character');
  });

  it('normalises to NFKC: full-width letters and ligatures become their plain forms', () => {
    // NFKC of U+FF21 FULLWIDTH LATIN CAPITAL LETTER A is U+0041; of U+FB01 LATIN SMALL LIGATURE FI, "fi".
    expect(userName.parse('  Ａlice ﬁsh ')).toBe('Alice fish');
  });

  it('refuses a user name in the form of an e-mail address; team and system names may hold @', () => {
    expect(message(userName.safeParse('victim@sec.test'))).toBe("name must not contain '@': a user name cannot look like an e-mail address");
    expect(displayNameSchema({ field: 'systemName', min: 1 }).parse('model@v2')).toBe('model@v2');
  });

  it('says "must not be empty" for a required one-character minimum and the count otherwise', () => {
    expect(message(displayNameSchema({ field: 'systemName', min: 1 }).safeParse('  '))).toBe('systemName must not be empty');
    expect(message(userName.safeParse('a'))).toBe('name must have at least 2 characters');
  });

  it('finds the first hidden character by code point, astral ones included', () => {
    // U+E0001 LANGUAGE TAG is Cf outside the Basic Multilingual Plane.
    expect(findHiddenCharacter('ok \u{E0001}')).toEqual({ codePoint: 0xe0001, kind: 'format' });
    expect(findHiddenCharacter('Zoë 🦊')).toBeNull();
    expect(describeCodePoint(0xe0001)).toBe('U+E0001');
  });
});
