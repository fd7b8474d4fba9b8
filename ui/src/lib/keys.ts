/**
 * The API's rules for keys and short texts, checked as they are typed (the API checks them again and its message
 * stays the last word). They mirror src/common/validation.ts exactly: a flag, segment or namespace key is letters,
 * digits, `-`, `_` and `,` (Flipt's pattern); a variant key is any text; each is at most MAX_KEY_LENGTH characters,
 * counted as the databases count them (code points), and so is a name.
 */

/** `KEY_PATTERN` in src/common/validation.ts. */
const KEY_PATTERN = /^[-_,A-Za-z0-9]+$/;
const KEY_CHARACTER = /[-_,A-Za-z0-9]/u;
/** `MAX_KEY_LENGTH` in src/storage/columns.ts (VARCHAR(255), as Flipt). */
export const MAX_KEY_LENGTH = 255;

/** What is wrong with a flag, segment or namespace key, or undefined when the API would take it. */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'A key is required.';
  if (!KEY_PATTERN.test(key)) return `Not allowed in a key: ${describeCharacters(invalidCharacters(key))}. Use letters, digits, - _ and , only.`;
  return lengthProblem(key);
}

/** What is wrong with a variant key: the API takes any text, but not none and not too much. */
export function variantKeyProblem(key: string): string | undefined {
  return key === '' ? 'A key is required.' : lengthProblem(key);
}

/** Under every variant key: the rule of the other keys, which a variant key is best kept to. */
export const VARIANT_KEY_HINT = 'Letters, digits, - _ and , as in other keys.';

/**
 * What a variant key has that other keys may not (a space, "é"): the API takes it, so it is said and not refused, as
 * code that asks for the variant must then spell it exactly.
 */
export function variantKeyAdvice(key: string): string | undefined {
  if (key === '' || KEY_PATTERN.test(key)) return undefined;
  return `Not usual in a key: ${describeCharacters(invalidCharacters(key))}. The API takes it, but code must spell it exactly; letters, digits, - _ and , are safer.`;
}

/** A flag's, segment's or namespace's name: required (`requireField`), and as long as a key at most. */
export function nameProblem(name: string): string | undefined {
  return name === '' ? 'A name is required.' : lengthProblem(name);
}

/** Names (flags, segments, namespaces, variants) are as long as keys at most. */
export function lengthProblem(text: string): string | undefined {
  const length = [...text].length;
  return length > MAX_KEY_LENGTH ? `At most ${MAX_KEY_LENGTH} characters: this has ${length}.` : undefined;
}

function invalidCharacters(key: string): string[] {
  return [...new Set([...key].filter((c) => !KEY_CHARACTER.test(c)))];
}

/** `space, "é", "/"`: characters a reader cannot see are named. */
function describeCharacters(chars: string[]): string {
  const shown = chars.slice(0, 5).map((c) => (c === ' ' ? 'space' : /\s/u.test(c) ? 'a line break or tab' : `"${c}"`));
  return [...new Set(shown)].join(', ') + (chars.length > 5 ? ' and more' : '');
}
