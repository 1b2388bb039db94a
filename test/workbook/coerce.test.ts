/** Cell coercion rules (docs/workbook-format.md "Reading cells"). */
import { describe, expect, it } from 'vitest';
import {
  NEEDS_FULL_COERCION,
  coerceCell,
  decodeCellText,
  decodeEscapes,
  parseNumberText,
  quickCoerce,
} from '../../core/workbook/coerce.js';
import { expectation, type Column } from '../../core/workbook/columns.js';
import { getSheet } from '../../core/workbook/registry.js';

describe('numbers stored as text', () => {
  const cases: [string, number | undefined, boolean?][] = [
    ['120', 120],
    [' 120 ', 120],
    ['12.5', 12.5],
    ['12,5', 12.5],
    ['-3,5', -3.5],
    ['0,125', 0.125],
    ['1.234,5', 1234.5],
    ['1,234.5', 1234.5],
    ['1 234,5', 1234.5],
    ['1\u00a0234,5', 1234.5],
    ["1'234.5", 1234.5],
    ['1.234.567', 1234567],
    ['1,234,567.25', 1234567.25],
    ['1e3', 1000],
    ['.5', 0.5],
    ['1,250', 1.25, true],
    ['1.250', 1.25, true],
    ['12%', undefined],
    ['zwölf', undefined],
    ['1,2,3', undefined],
    ['1.23.4', undefined],
    ['1.234,5,6', undefined],
    ['', undefined],
  ];
  for (const [text, value, ambiguous] of cases)
    it(`${JSON.stringify(text)} → ${String(value)}${ambiguous ? ' (ambiguous)' : ''}`, () => {
      const r = parseNumberText(text);
      expect(r?.value).toBe(value);
      expect(r?.ambiguous ?? false).toBe(ambiguous ?? false);
    });
});

describe('coerceCell', () => {
  const col = (
    sheet: 'supplier-products' | 'product-instances' | 'bom',
    field: string,
  ): [Column, { field: string; expected: string; date1904: boolean }] => {
    const c = getSheet(sheet).columns[field];
    return [c, { field, expected: expectation(c), date1904: false }];
  };

  it('decodes Excel _xHHHH_ escapes (control characters) of a workbook cell once, so validation can see them', () => {
    expect(decodeEscapes('Sand_x0007_ 0/2')).toBe('Sand\u0007 0/2');
    expect(decodeEscapes('a_x005F_x0007_b')).toBe('a_x0007_b');
    expect(decodeCellText('Sand_x001B_')).toBe('Sand\u001b');
    expect(decodeCellText({ richText: [{ text: 'Line_x000D_' }, { text: 'Two' }] })).toBe('Line\rTwo');
    expect(decodeCellText({ text: 'A_x005F_x000D_', hyperlink: 'https://example.com' })).toBe('A_x000D_');
    expect(decodeCellText({ formula: 'A1', result: 'x_x0009_y' })).toBe('x\ty');
    const numeric = { formula: 'A1', result: 3 };
    expect(decodeCellText(numeric)).toBe(numeric);
    const error = { error: '#N/A' };
    expect(decodeCellText(error)).toBe(error);
  });

  it("takes text as it is: the escapes are a workbook's, decoded as its rows are read (a CSV has none)", () => {
    expect(coerceCell('Sand_x001B_', ...col('supplier-products', 'name'))).toEqual({
      kind: 'value',
      value: 'Sand_x001B_',
    });
  });

  it('a year: numbers, dates, date serials, date text', () => {
    const y = col('product-instances', 'produced_from');
    expect(coerceCell(2024, ...y)).toEqual({ kind: 'value', value: 2024 });
    expect(coerceCell(45292, ...y)).toMatchObject({ kind: 'value', value: 2024, warning: { code: 'date_as_year' } });
    expect(coerceCell(new Date(Date.UTC(2019, 11, 31)), ...y)).toMatchObject({
      value: 2019,
      warning: { code: 'date_as_year' },
    });
    expect(coerceCell('2023-07-01', ...y)).toMatchObject({ value: 2023, warning: { code: 'date_as_year' } });
    expect(coerceCell('15.03.2022', ...y)).toMatchObject({ value: 2022 });
    expect(coerceCell(1850, ...y)).toEqual({ kind: 'value', value: 1850 }); // the schema refuses it
    expect(coerceCell('soon', ...y)).toMatchObject({ kind: 'error', error: { code: 'wrong_type' } });
  });

  it('a date in a text column is an error (Excel changed what was typed)', () => {
    expect(coerceCell(new Date(Date.UTC(2024, 0, 3)), ...col('supplier-products', 'external_id'))).toMatchObject({
      kind: 'error',
      error: { code: 'date_in_text_column', message: expect.stringMatching(/2024-01-03/) },
    });
  });

  it('formula values, error values, booleans', () => {
    const m = col('bom', 'mass_kg');
    expect(coerceCell({ formula: 'A1*2', result: 4 }, ...m)).toEqual({ kind: 'value', value: 4 });
    expect(coerceCell({ sharedFormula: 'D2', result: '4,5' }, ...m)).toEqual({ kind: 'value', value: 4.5 });
    expect(coerceCell({ formula: 'A1*2' }, ...m)).toMatchObject({
      kind: 'error',
      error: { code: 'formula_without_result' },
    });
    expect(coerceCell({ error: '#N/A' }, ...m)).toMatchObject({
      kind: 'error',
      error: { code: 'formula_error', message: expect.stringContaining('#N/A') },
    });
    expect(coerceCell(true, ...m)).toMatchObject({ kind: 'error', error: { code: 'wrong_type' } });
    expect(coerceCell('#Clear', ...m)).toEqual({ kind: 'clear' });
    expect(coerceCell('   ', ...m)).toEqual({ kind: 'blank' });
  });

  it('a large number in a code column keeps its text with a warning', () => {
    expect(coerceCell(12345678901234567000, ...col('supplier-products', 'external_id'))).toMatchObject({
      kind: 'value',
      warning: { code: 'number_as_text_imprecise' },
    });
  });

  it('the allocation-free fast path agrees with coerceCell whenever it answers', () => {
    const raws: unknown[] = [
      0,
      1,
      -2.5,
      2024,
      1850,
      45292,
      NaN,
      '',
      '  ',
      ' x ',
      '#CLEAR',
      '#clear',
      'KG',
      'kg',
      'a_x0007_b',
      '12,5',
      true,
      new Date(0),
      { formula: 'x', result: 1 },
    ];
    for (const sheet of ['supplier-products', 'product-instances', 'bom'] as const) {
      for (const [field, c] of Object.entries(getSheet(sheet).columns)) {
        const allowed = c.allowed ? new Set(c.allowed) : undefined;
        for (const raw of raws) {
          const q = quickCoerce(raw, c, allowed);
          if (q === NEEDS_FULL_COERCION) continue;
          const full = coerceCell(raw, c, { field, expected: expectation(c), date1904: false });
          const expected =
            full.kind === 'blank'
              ? undefined
              : full.kind === 'clear'
                ? null
                : full.kind === 'value' && !full.warning
                  ? full.value
                  : 'differs';
          expect(q, `${sheet}.${field} ${String(raw)}`).toEqual(expected);
        }
      }
    }
  });
});
