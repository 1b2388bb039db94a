/**
 * Numbers typed in the app are read in the UI's language: German "41250,5" is 41250.5 (never 412505); a text
 * another language would read differently, or written with the other language's decimal mark, is refused with
 * how to type it, never silently reinterpreted.
 */
import { describe, expect, it } from 'vitest';
import {
  parseTypedNumber,
  readQuantity,
  separators,
  typingExample,
} from '../../renderer/src/components/number-input.js';
import { translate, type Locale } from '../../renderer/src/i18n/index.js';

const tOf = (locale: Locale) => (key: Parameters<typeof translate>[1], vars?: Record<string, string | number>) =>
  translate(locale, key, vars);

describe('parseTypedNumber', () => {
  it('takes the separators from Intl.NumberFormat', () => {
    expect(separators('de')).toEqual({ group: '.', decimal: ',' });
    expect(separators('en')).toEqual({ group: ',', decimal: '.' });
  });

  it('reads German numbers in German', () => {
    expect(parseTypedNumber('41250,5', 'de')).toEqual({ ok: true, value: 41250.5 });
    expect(parseTypedNumber('41.250,5', 'de')).toEqual({ ok: true, value: 41250.5 });
    expect(parseTypedNumber('41 250,5', 'de')).toEqual({ ok: true, value: 41250.5 });
    expect(parseTypedNumber('1.234.567', 'de')).toEqual({ ok: true, value: 1234567 });
    expect(parseTypedNumber('0,05', 'de')).toEqual({ ok: true, value: 0.05 });
    expect(parseTypedNumber('1,234', 'de')).toEqual({ ok: true, value: 1.234 });
    expect(parseTypedNumber(' 42 ', 'de')).toEqual({ ok: true, value: 42 });
    expect(parseTypedNumber('-3,5', 'de')).toEqual({ ok: true, value: -3.5 });
  });

  it('reads English numbers in English', () => {
    expect(parseTypedNumber('41250.5', 'en')).toEqual({ ok: true, value: 41250.5 });
    expect(parseTypedNumber('41,250.5', 'en')).toEqual({ ok: true, value: 41250.5 });
    expect(parseTypedNumber('1,234,567', 'en')).toEqual({ ok: true, value: 1234567 });
    expect(parseTypedNumber('1.234', 'en')).toEqual({ ok: true, value: 1.234 });
  });

  it('refuses what the other language would read differently, with both readings', () => {
    expect(parseTypedNumber('1.234', 'de')).toEqual({ ok: false, reason: 'ambiguous', readings: [1234, 1.234] });
    expect(parseTypedNumber('1,234', 'en')).toEqual({ ok: false, reason: 'ambiguous', readings: [1234, 1.234] });
  });

  it("refuses the other language's decimal mark instead of dropping it", () => {
    expect(parseTypedNumber('41250.5', 'de')).toEqual({ ok: false, reason: 'ambiguous', readings: [41250.5] });
    expect(parseTypedNumber('41250,5', 'en')).toEqual({ ok: false, reason: 'ambiguous', readings: [41250.5] });
  });

  it('refuses what is no number', () => {
    for (const text of ['abc', '12e3', '1.2.3', '1.234,5,6', '1.23,5', '4O'])
      expect(parseTypedNumber(text, 'de'), text).toEqual({ ok: false, reason: 'not_a_number' });
    expect(parseTypedNumber('  ', 'de')).toEqual({ ok: false, reason: 'empty' });
  });

  it('writes examples as they are typed in the language', () => {
    expect(typingExample(41250.5, 'de')).toBe('41250,5');
    expect(typingExample(41250.5, 'en')).toBe('41250.5');
  });
});

describe('readQuantity (the production figure typed on the LCA screen)', () => {
  it('"41250,5" in the German UI is 41250.5', () => {
    expect(readQuantity('41250,5', 'de', tOf('de'))).toEqual({ value: 41250.5 });
  });

  it('an ambiguous entry is refused with examples in the UI language', () => {
    expect(readQuantity('41250.5', 'de', tOf('de'))).toEqual({
      problem: '„41250.5“ ist keine hier übliche Schreibweise einer Zahl. Geben Sie sie als 41250,5 ein.',
    });
    expect(readQuantity('1.234', 'de', tOf('de'))).toEqual({
      problem: '„1.234“ lässt sich verschieden lesen. Geben Sie die Zahl als 1234 oder 1,234 ein.',
    });
    expect(readQuantity('1,234', 'en', tOf('en'))).toEqual({
      problem: '“1,234” can be read in more than one way. Type it as 1234 or 1.234.',
    });
  });

  it('no number and a negative quantity are refused; an empty field has no text (the field is required)', () => {
    expect(readQuantity('viel', 'de', tOf('de'))).toEqual({
      problem: '„viel“ ist keine Zahl. Geben Sie sie zum Beispiel als 41250,5 ein.',
    });
    expect(readQuantity('-1', 'en', tOf('en'))).toEqual({ problem: 'The quantity cannot be negative.' });
    expect(readQuantity('', 'en', tOf('en'))).toEqual({ problem: null });
  });
});
