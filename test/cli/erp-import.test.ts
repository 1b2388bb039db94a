/**
 * Sources from an ERP through the CLI against the in-process sandbox: every point of "nothing silently ignored"
 * at its cell (validate, plan, import); an ERP .xlsx with its own headers imported through a saved mapping to the
 * exact service state and re-imported with zero writes; `mapping suggest` / save / list / show / remove. A German
 * ERP CSV set: erp-csv-import.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalised, serviceState } from './dataset.js';
import { apiClient, clearRequests, isWrite, requests } from './helpers.js';
import { erpEnv, fieldsOf, colOf } from './erp-env.js';

const env = erpEnv();

describe('nothing silently ignored, through the CLI', () => {
  const product = (i: number, over: Record<string, string | number> = {}) => ({
    external_id: `NSI-SP-${i}`,
    name: `Sand ${i}`,
    plant_code: 'PL-MUC',
    material_code: 'MAT-SAND',
    unit: 'KG',
    ...over,
  });
  const rowsOf = (fields: string[], rows: Record<string, string | number>[]) =>
    rows.map((r) => fields.map((f) => r[f] ?? null));

  it('a misnamed column: validate and plan show the error at the header cell with "did you mean `truck_km`?"; other unknown columns are named as ignored', async () => {
    const fields = fieldsOf('supplier-products').map((f) => (f === 'truck_km' ? 'truck_distance_km' : f));
    const header = [...fields, 'Kommentar'];
    const file = await env.xlsx('misnamed.xlsx', {
      'supplier-products': [
        header,
        ...rowsOf(
          header,
          [1, 2, 3].map((i) => ({ ...product(i), truck_distance_km: 22, Kommentar: 'x' })),
        ),
      ],
    });
    const cell = `supplier-products!${colOf('supplier-products', 'truck_km')}1`;
    const v = await env.run(['validate', file]);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(
      new RegExp(
        `error +${cell.replace(/[-!]/g, '\\$&')} \\(truck_km\\): Column "truck_distance_km" is not a field of supplier-products: did you mean \`truck_km\`\\?`,
      ),
    );
    expect(v.stdout).toContain('ignored columns: Kommentar');
    const p = await env.run(['plan', file]);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain(`${cell} (truck_km): Column "truck_distance_km"`);
    expect(p.stdout).toContain('supplier-products: 3 row(s); ignored columns: Kommentar');
    // The rows are blocked, never "unchanged" (the workbook says 22, the value would be lost silently).
    expect(p.stdout).toContain('total: 0 create, 0 unchanged, 3 blocked');
    const j = JSON.parse((await env.run(['plan', file, '--json'])).stdout) as {
      workbook: { sheets: { ignored_columns: { header: string }[] }[] };
    };
    expect(j.workbook.sheets[0].ignored_columns.map((c) => c.header)).toEqual(['Kommentar']);
  });

  it('a missing required column (no action column): validate, plan and import show the header error, and the rows as not read', async () => {
    const fields = fieldsOf('supplier-products').filter((f) => f !== 'unit' && f !== 'action');
    const file = await env.xlsx('missing.xlsx', {
      'supplier-products': [
        fields,
        ...rowsOf(
          fields,
          [1, 2, 3].map((i) => product(i)),
        ),
      ],
    });
    await clearRequests(env.sb);
    for (const cmd of ['validate', 'plan', 'import']) {
      const r = await env.run([cmd, file]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr, cmd).toMatch(/error +supplier-products!\w+1 \(unit\): Required column unit is missing/);
      expect(r.stdout + r.stderr, cmd).toContain('supplier-products: header error: 3 filled row(s) not read');
    }
    expect((await requests(env.sb)).filter(isWrite)).toEqual([]);
  });

  it('an empty (unfilled) workbook is an error, exit 2 — never "no problems"', async () => {
    const file = await env.xlsx('empty.xlsx', { 'supplier-products': [fieldsOf('supplier-products')] });
    const v = await env.run(['validate', file]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('No data rows');
    const i = await env.run(['import', file]);
    expect(i.code).toBe(2);
  });

  it('a material code typo is reported at its cause with the closest known code, in the same plan as everything else', async () => {
    const fields = fieldsOf('supplier-products');
    const file = await env.xlsx('typo.xlsx', {
      'supplier-products': [fields, ...rowsOf(fields, [product(1), product(2, { material_code: 'MAT-SNAD' })])],
    });
    const p = await env.run(['plan', file]);
    expect(p.code).toBe(2);
    expect(p.stdout).toContain(`supplier-products!${colOf('supplier-products', 'material_code')}3`);
    expect(p.stdout).toContain('did you mean MAT-SAND?');
  });

  it('a PDF given as a source is named as a PDF', async () => {
    const pdf = path.join(env.dir, 'export.csv');
    fs.writeFileSync(pdf, '%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
    const v = await env.run(['validate', pdf]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('This is a PDF document');
  });
});

// ---------------------------------------------------------------- the German ERP CSV set

const Q = 'ERPB';
describe('an ERP .xlsx with its own headers through a saved mapping', () => {
  it('imports exactly, re-imports with zero writes; mapping show / remove', async () => {
    const file = await env.xlsx('navision.xlsx', {
      Vendors: [
        ['Vendor List (exported 2025-11-30)'],
        ['No.', 'Name', 'Country/Region Code', 'Blocked'],
        [`${Q}-V1`, 'Nordkies GmbH', 'DE', 'No'],
        [`${Q}-V2`, 'Alpensand GmbH', 'AT', 'No'],
      ],
      Items: [
        ['Item List'],
        ['No.', 'Description', 'Location Code', 'Item Category Code', 'Base Unit of Measure', 'Road Distance (km)'],
        [`${Q}-I1`, 'Kies 2/8', 'PL-MUC', 'MAT-GRAVEL', 'KG', 7.5],
      ],
    });
    const mapping = {
      version: 1,
      name: 'Navision',
      sheets: {
        'supplier-companies': {
          source: 'Vendors',
          header_row: 2,
          columns: { 'No.': 'external_id', Name: 'name', 'Country/Region Code': 'country' },
          ignore: ['Blocked'],
        },
        'supplier-products': {
          source: 'Items',
          header_row: 2,
          columns: {
            'No.': 'external_id',
            Description: 'name',
            'Location Code': 'plant_code',
            'Item Category Code': 'material_code',
            'Base Unit of Measure': 'unit',
            'Road Distance (km)': 'truck_km',
          },
        },
      },
    };
    fs.writeFileSync(path.join(env.dir, 'nav.json'), JSON.stringify(mapping));
    expect((await env.run(['mapping', 'save', 'nav.json', '--profile', 'ERP'])).code).toBe(0);
    const imp = await env.run(['import', file, '--mapping', 'navision', '--profile', 'ERP']);
    expect(imp.code, imp.stderr + imp.stdout).toBe(0);
    const state = await serviceState(apiClient(env.sb), Q);
    const want = normalised({
      'supplier-companies': [
        { external_id: `${Q}-V1`, name: 'Nordkies GmbH', country: 'DE' },
        { external_id: `${Q}-V2`, name: 'Alpensand GmbH', country: 'AT' },
      ],
      'supplier-products': [
        {
          external_id: `${Q}-I1`,
          name: 'Kies 2/8',
          plant_code: 'PL-MUC',
          material_code: 'MAT-GRAVEL',
          unit: 'KG',
          truck_km: 7.5,
        },
      ],
    });
    expect(state['supplier-companies']).toEqual(want['supplier-companies']);
    expect(state['supplier-products']).toEqual(want['supplier-products']);
    await clearRequests(env.sb);
    expect((await env.run(['import', file, '--mapping', 'Navision', '--profile', 'ERP'])).code).toBe(0);
    expect((await requests(env.sb)).filter(isWrite)).toEqual([]);

    const show = await env.run(['mapping', 'show', 'Navision', '--profile', 'ERP']);
    expect(JSON.parse(show.stdout)).toMatchObject({ version: 1, name: 'Navision' });
    expect((await env.run(['mapping', 'remove', 'Navision', '--profile', 'ERP'])).code).toBe(0);
    const gone = await env.run(['validate', file, '--mapping', 'Navision', '--profile', 'ERP']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('no mapping file or saved mapping "Navision"');
  });
});

describe('mapping suggest', () => {
  it('writes a draft with confidences, names the unmapped required fields and exits 2 while one is unmapped; 0 once all are', async () => {
    const f = env.writeCsv('Einkauf_2025-11.csv', [
      'Einkaufsdaten für Werk München',
      '',
      'Lieferprodukt-ID;Materialbezeichnung (lang);Werk Nr.;Material-Code;Mengeneinh.;LKW-Distanz (km);Notiz',
      'X1;Sand;PL-MUC;MAT-SAND;kg;12,5;',
    ]);
    const r = await env.run(['mapping', 'suggest', f, '-o', 'draft.json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Einkauf_2025-11.csv → supplier-products (header in row 3)');
    expect(r.stdout).toMatch(/LKW-Distanz \(km\) → truck_km {2}\(synonym, \d+ %\)/);
    expect(r.stdout).toContain('required fields without a column:');
    const draft = JSON.parse(fs.readFileSync(path.join(env.dir, 'draft.json'), 'utf8')) as {
      suggestions: { confidence: number }[];
      unmapped_required: Record<string, string[]>;
    };
    expect(draft.suggestions.length).toBeGreaterThan(3);
    // "Werk Nr." is the plant (the abbreviation spelled out); the product's own number and its unit are left open.
    expect(r.stdout).toMatch(/Werk Nr\. → plant_code {2}\(synonym, \d+ %\)/);
    expect(draft.unmapped_required['supplier-products']).toEqual(expect.arrayContaining(['external_id', 'unit']));

    const ok = env.writeCsv('kreditoren.csv', ['Kreditorennummer;Firmenname;Land', 'X;Y;DE']);
    const s = await env.run(['mapping', 'suggest', ok, '-o', 'draft2.json']);
    expect(s.code, s.stdout).toBe(0);
    expect(s.stdout).toContain('→ supplier-companies (header in row 1)');
  });
});
