/** The column-mapping contract (versions, paths, globs, header rows, values and constants) and `mapping suggest`. */
import { writeFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { readSource } from '../../core/workbook/sources/index.js';
import { peekSource } from '../../core/workbook/sources/peek.js';
import { parseColumnMapping } from '../../core/workbook/column-mapping/schema.js';
import { suggestMapping } from '../../core/workbook/column-mapping/suggest.js';
import { writeXlsx, tempDir } from './helpers.js';
import { mapping } from './erp-helpers.js';

const tmp = tempDir('sl-erp-');
afterAll(() => tmp.cleanup());

describe('the column-mapping contract', () => {
  it('version and sheets required; unknown keys are errors with their path; fields must exist', () => {
    expect(parseColumnMapping({ sheets: {} })).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^version/)],
    });
    expect(parseColumnMapping({ version: 1 })).toMatchObject({ ok: false, errors: [expect.stringMatching(/^sheets/)] });
    const r = parseColumnMapping({
      version: 1,
      sheets: { 'supplier-products': { colums: {} } },
      csv: { delimeter: ';' },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual(
      expect.arrayContaining([
        'sheets.supplier-products.colums: unknown key (a typo?)',
        'csv.delimeter: unknown key (a typo?)',
      ]),
    );
    const f = parseColumnMapping({ version: 1, sheets: { 'supplier-products': { columns: { Werk: 'plant' } } } });
    expect(!f.ok && f.errors[0]).toMatch(
      /^sheets\.supplier-products\.columns\.Werk: "plant" is not a field of supplier-products/,
    );
    expect(parseColumnMapping({ version: 1, sheets: { nonsense: {} } }).ok).toBe(false);
    const issueExample = parseColumnMapping({
      version: 1,
      name: 'SAP MM monthly',
      sheets: {
        'supplier-products': {
          source: 'MAT_*.csv',
          header_row: 1,
          columns: { Materialnummer: 'external_id', Materialkurztext: 'name', Werk: 'plant_code' },
          ignore: ['Kommentar'],
          values: { unit: { Stück: 'UNIT', kg: 'KG' } },
          constants: { country: 'DE' },
        },
      },
      csv: { delimiter: ';', encoding: 'windows-1252', decimal: ',', date: 'DD.MM.YYYY' },
    });
    // country is no field of supplier-products: refused with its path and exactly where it belongs instead
    expect(!issueExample.ok && issueExample.errors).toEqual([
      'sheets.supplier-products.constants.country: "country" is not a field of supplier-products: it belongs to the supplier-plants and the supplier-companies its rows refer to. ' +
        'Give the constant where those rows are read: "sheets": { "supplier-plants": { "constants": { "country": "DE" } } } and "sheets": { "supplier-companies": { "constants": { "country": "DE" } } } ' +
        '(a sheet entry without "source" applies to the source named after the sheet)',
    ]);
    // done as it says, the example is accepted
    expect(
      parseColumnMapping({
        version: 1,
        sheets: {
          'supplier-products': { source: 'MAT_*.csv' },
          'supplier-plants': { constants: { country: 'DE' } },
          'supplier-companies': { constants: { country: 'DE' } },
        },
      }).ok,
    ).toBe(true);
    expect(!parseColumnMapping({ version: 1, sheets: { silos: { constants: { colour: 'red' } } } }).ok).toBe(true);
  });

  it('source glob, header_row with a title above, values and constants', async () => {
    const path = tmp.file('LIEF_2025-11.csv');
    await writeFile(
      path,
      iconv.encode(
        'Lieferantenstamm November 2025\r\nKreditor;Firma;Land;Bemerkung\r\n70001;Müller GmbH;Deutschland;x\r\n70002;Hofer AG;Österreich;\r\n',
        'windows-1252',
      ),
    );
    const m = mapping({
      version: 1,
      sheets: {
        'supplier-companies': {
          source: 'LIEF_*.csv',
          header_row: 2,
          columns: { Kreditor: 'external_id', Firma: 'name', Land: 'country' },
          ignore: ['Bemerkung'],
          values: { country: { Deutschland: 'DE', Österreich: 'AT' } },
        },
      },
    });
    const p = await readSource(path, { mapping: m });
    expect(p.issues).toEqual([]);
    expect(p.sheets[0].rows).toEqual([
      { row: 3, values: { external_id: '70001', name: 'Müller GmbH', country: 'DE' } },
      { row: 4, values: { external_id: '70002', name: 'Hofer AG', country: 'AT' } },
    ]);
    const c = mapping({
      version: 1,
      sheets: {
        'supplier-plants': {
          source: 'LIEF_*.csv',
          header_row: 2,
          columns: { Kreditor: 'external_id', Firma: 'name' },
          constants: { supplier_company_external_id: 'SUP-1', country: 'DE' },
          ignore: ['Land', 'Bemerkung'],
        },
      },
    });
    const q = await readSource(path, { mapping: c });
    expect(q.sheets[0].rows[0].values).toEqual({
      external_id: '70001',
      name: 'Müller GmbH',
      supplier_company_external_id: 'SUP-1',
      country: 'DE',
    });
  });
});

describe('mapping suggest', () => {
  it('finds the sheet, the header row under a title, and fields for headers not written in the synonym table', async () => {
    const path = tmp.file('Einkauf_2025-11.csv');
    await writeFile(
      path,
      iconv.encode(
        'Einkaufsdaten für Werk Heidelberg\r\n\r\nLieferprodukt-ID;Materialbezeichnung (lang);Werk Nr.;Material-Code;Mengeneinh.;LKW-Distanz (km);Notiz\r\nA1;Sand;PL-HEID;MAT-SAND;kg;12,5;\r\n',
        'windows-1252',
      ),
    );
    const { mapping: m, perSource } = suggestMapping(await peekSource(path));
    expect(perSource[0]).toMatchObject({ sheet: 'supplier-products', headerRow: 3 });
    const sp = m.sheets['supplier-products']!;
    expect(sp.source).toBe('Einkauf_*.csv');
    expect(m.csv).toMatchObject({ delimiter: ';', encoding: 'windows-1252', decimal: ',' });
    // Applied (confidence ≥ 0.8): lenient, a synonym behind a unit in brackets, a synonym within the header, an
    // abbreviation spelled out (`Nr.` → Nummer).
    expect(sp.columns).toEqual({
      'Material-Code': 'material_code',
      'Materialbezeichnung (lang)': 'name',
      'LKW-Distanz (km)': 'truck_km',
      'Werk Nr.': 'plant_code',
    });
    const method = Object.fromEntries(m.suggestions!.map((s) => [s.column, s.method]));
    expect(method).toMatchObject({
      'Material-Code': 'lenient',
      'Materialbezeichnung (lang)': 'synonym',
      'LKW-Distanz (km)': 'synonym',
    });
    // Low confidence is listed, never applied silently; the required fields without a column are named.
    const low = m.suggestions!.filter((s) => s.confidence < 0.8).map((s) => s.column);
    expect(low.length).toBeGreaterThan(0);
    for (const c of low) expect(sp.columns![c]).toBeUndefined();
    expect(m.unmapped_required!['supplier-products']).toEqual(expect.arrayContaining(['external_id', 'unit']));
    expect(m.suggestions!.every((s) => s.confidence > 0 && s.confidence <= 1)).toBe(true);
    // The draft is a valid mapping (its suggestions included).
    expect(parseColumnMapping(JSON.parse(JSON.stringify(m))).ok).toBe(true);
  });

  it('a workbook: each sheet is a source; the title row above the header is skipped', async () => {
    const path = tmp.file('erp.xlsx');
    await writeXlsx(path, {
      Kreditoren: [
        ['Kreditorenliste Stand 30.11.2025'],
        ['Kreditorennummer', 'Firmenname', 'Land', 'Sachbearbeiter'],
        ['70001', 'Müller GmbH', 'DE', 'Meier'],
      ],
      Notizen: [['irgendwas']],
    });
    const { mapping: m, perSource } = suggestMapping(await peekSource(path));
    expect(perSource.map((s) => [s.source, s.sheet, s.headerRow])).toEqual([
      ['Kreditoren', 'supplier-companies', 2],
      ['Notizen', null, 1],
    ]);
    expect(m.sheets['supplier-companies']).toEqual({
      source: 'Kreditoren',
      header_row: 2,
      columns: { Kreditorennummer: 'external_id', Firmenname: 'name', Land: 'country' },
      ignore: ['Sachbearbeiter'],
    });
    expect(m.unmapped_required).toBeUndefined();
    // The draft reads the workbook as it is.
    const parsed = await readWorkbook(path, { mapping: mapping(JSON.parse(JSON.stringify(m))) });
    expect(parsed.sheets[0].rows).toEqual([
      { row: 3, values: { external_id: '70001', name: 'Müller GmbH', country: 'DE' } },
    ]);
  });
});
