/** The Columns step's pure logic: pre-selection by confidence, required fields, enum translation, the mapping made. */
import { describe, expect, it } from 'vitest';
import {
  buildMapping,
  choicesFromMapping,
  duplicateFields,
  initialChoices,
  missingRequired,
  sheetsFedTwice,
  UNDECIDED,
  valuesToTranslate,
  type ColumnsView,
} from '../../renderer/src/screens/import/columnsLogic.js';

const sugg = (column: string, field: string, confidence: number) => ({
  column,
  field,
  method: 'synonym' as const,
  confidence,
});
const view: ColumnsView = {
  highConfidence: 0.8,
  needed: true,
  targetSheets: ['supplier-products', 'plants'],
  saved: null,
  draft: {
    version: 1,
    sheets: {
      'supplier-products': {
        source: 'MAT_*.csv',
        header_row: 2,
        columns: { Materialnummer: 'external_id' },
        ignore: ['Kommentar'],
      },
    },
    csv: { delimiter: ';', encoding: 'windows-1252', decimal: ',' },
  },
  sources: [
    {
      source: 'MAT_2025-11.csv',
      isCsv: true,
      sheet: 'supplier-products',
      headerRow: 2,
      unmappedRequired: [],
      needed: true,
      columns: [
        { column: 'Materialnummer', samples: ['M1', 'M2'], suggestion: sugg('Materialnummer', 'external_id', 0.85) },
        { column: 'Bez', samples: ['Sand', 'Kies'], suggestion: sugg('Bez', 'name', 0.55) },
        { column: 'ME', samples: ['to', 'KG'], suggestion: sugg('ME', 'unit', 0.85) },
        { column: 'Kommentar', samples: ['x', ''], suggestion: null },
      ],
      fields: [
        { field: 'external_id', required: true, allowed: [] },
        { field: 'name', required: true, allowed: [] },
        { field: 'unit', required: true, allowed: ['KG', 'T', 'UNIT'] },
        { field: 'truck_km', required: false, allowed: [] },
      ],
    },
  ],
};
const src = view.sources[0];

describe('Columns step logic', () => {
  it('pre-selects only suggestions of high confidence; a low one is not applied silently, nor ignored: left undecided', () => {
    expect(initialChoices(src, 0.8)).toEqual({
      Materialnummer: 'external_id',
      Bez: UNDECIDED,
      ME: 'unit',
      Kommentar: '',
    });
  });

  it('an undecided column is neither mapped nor ignored (the check says what it is, at its header cell), nor a duplicate field', () => {
    const ch = { ...initialChoices(src, 0.8), ME: UNDECIDED };
    expect(duplicateFields(ch)).toEqual([]);
    const sm = buildMapping(view, { [src.source]: ch }, {}).sheets['supplier-products']!;
    expect(sm.columns).toEqual({ Materialnummer: 'external_id' });
    expect(sm.ignore).toEqual(['Kommentar']);
    // read back: still undecided (a saved mapping's ignored column stays not imported)
    expect(choicesFromMapping(src, buildMapping(view, { [src.source]: ch }, {}))).toEqual(ch);
  });

  it('ticks off required fields and finds a field chosen twice', () => {
    const ch = initialChoices(src, 0.8);
    expect(missingRequired(src, ch)).toEqual(['name']);
    expect(missingRequired(src, { ...ch, Bez: 'name' })).toEqual([]);
    expect(duplicateFields({ ...ch, Bez: 'unit' })).toEqual(['unit']);
  });

  it('asks to translate enum values that are not allowed (case aside)', () => {
    expect(valuesToTranslate(src, initialChoices(src, 0.8))).toEqual([
      { field: 'unit', allowed: ['KG', 'T', 'UNIT'], values: ['to'] },
    ]);
  });

  it('builds the mapping document (source glob, header row, csv kept; unchosen columns ignored; values) and reads it back', () => {
    const ch = { ...initialChoices(src, 0.8), Bez: 'name' };
    const m = buildMapping(
      view,
      { [src.source]: ch },
      { [src.source]: { unit: { to: 'T', '': 'KG' } } },
      'SAP MM monthly',
    );
    expect(m).toEqual({
      version: 1,
      name: 'SAP MM monthly',
      sheets: {
        'supplier-products': {
          source: 'MAT_*.csv',
          header_row: 2,
          columns: { Materialnummer: 'external_id', Bez: 'name', ME: 'unit' },
          ignore: ['Kommentar'],
          values: { unit: { to: 'T' } },
        },
      },
      csv: { delimiter: ';', encoding: 'windows-1252', decimal: ',' },
    });
    expect(choicesFromMapping(src, m)).toEqual(ch);
  });
  it('a template sheet read as it is (not needed) gets no mapping entry; two sources of the step feeding one sheet are found', () => {
    const template = {
      ...src,
      source: 'plants',
      isCsv: false,
      sheet: 'plants',
      headerRow: 1,
      needed: false,
      columns: [
        {
          column: 'plant_code',
          samples: ['PL-1'],
          suggestion: { ...sugg('plant_code', 'plant_code', 1), method: 'exact' as const },
        },
      ],
    };
    const two = { ...view, sources: [src, template] };
    const m = buildMapping(two, { [src.source]: initialChoices(src, 0.8), plants: { plant_code: 'plant_code' } }, {});
    expect(Object.keys(m.sheets)).toEqual(['supplier-products']);
    expect(sheetsFedTwice(two)).toEqual([]);
    expect(sheetsFedTwice({ ...view, sources: [src, { ...src, source: 'MAT_2025-12.csv' }] })).toEqual([
      'supplier-products',
    ]);
  });
});
