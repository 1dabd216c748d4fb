import { z } from 'zod';

/** Names of common invisible or direction-changing format characters, for error messages. */
const FORMAT_CHARACTER_NAMES: Record<number, string> = {
  0x00ad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

/** `U+202E (RIGHT-TO-LEFT OVERRIDE)` */
export function describeCodePoint(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = FORMAT_CHARACTER_NAMES[cp];
  return name ? `${hex} (${name})` : hex;
}

/**
 * The first character a name must not hold: a control character (Unicode Cc) or a format
 * character (Cf: bidi overrides and isolates, zero-width spaces and joiners, the BOM, soft
 * hyphen …), which are invisible or reorder what is shown, so `evil\u202Egnp.exe` reads as
 * `evilexe.png`. Null when there is none.
 */
export function findHiddenCharacter(text: string): { codePoint: number; kind: 'control' | 'format' } | null {
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (/\p{Cc}/u.test(ch)) return { codePoint: cp, kind: 'control' };
    if (/\p{Cf}/u.test(ch)) return { codePoint: cp, kind: 'format' };
  }
  return null;
}

export interface DisplayNameRules {
  /** The argument's name in error messages (`name`, `systemName`). */
  field: string;
  min?: number;
  max?: number;
  /** User names must not look like an e-mail address (sign-in takes either): no `@`. */
  noAt?: boolean;
}

/**
 * A name shown to other people (user, team, system): trimmed, NFKC-normalised (full-width and
 * compatibility forms become their plain letters), no control or format characters (the error
 * names the field and the code point), and for user names no `@`.
 */
export function displayNameSchema({ field, min = 2, max = 100, noAt = false }: DisplayNameRules) {
  return z
    .string()
    .transform((s) => s.normalize('NFKC').trim())
    .superRefine((s, ctx) => {
      if (s.length < min) ctx.addIssue({ code: 'custom', message: min === 1 ? `${field} must not be empty` : `${field} must have at least ${min} characters` });
      if (s.length > max) ctx.addIssue({ code: 'custom', message: `${field} may have at most ${max} characters` });
      const hidden = findHiddenCharacter(s);
      if (hidden) {
        const what = hidden.kind === 'control' ? 'a control character' : 'an invisible or direction-changing format character (Unicode Cf)';
        ctx.addIssue({ code: 'custom', message: `${field} must not contain ${describeCodePoint(hidden.codePoint)}, ${what}` });
      }
      if (noAt && s.includes('@')) ctx.addIssue({ code: 'custom', message: `${field} must not contain '@': a user name cannot look like an e-mail address` });
    });
}
