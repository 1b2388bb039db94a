/**
 * English strings of typed numbers and plural-aware counts (spread into en.ts; words-de.ts has the same keys).
 * `{name}` marks a placeholder; `{n, plural, one {…} other {…}}` picks the form by Intl.PluralRules (`#` = n).
 */
export const enWords = {
  'number.ambiguous': '“{text}” can be read in more than one way. Type it as {examples}.',
  'number.otherMark': '“{text}” is not how a number is written here. Type it as {examples}.',
  'number.notANumber': '“{text}” is not a number. Type it like {example}.',
  'number.negative': 'The quantity cannot be negative.',
  'number.or': ' or ',
} as const;
