/**
 * Sources from an ERP (CSV, own headers, column mappings) through the CLI against the in-process sandbox: every point of "nothing silently ignored" at its
 * cell (validate, plan, import); a German ERP CSV set (Windows-1252, `;`, decimal comma, own headers, a title
 * row) and an ERP .xlsx with its own headers, each imported through a saved mapping to the exact service state
 * and re-imported with zero writes; `mapping suggest` / save / list / show / remove.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSheet } from '../../electron/core/workbook/registry.js';
import type { DataSheetName } from '../../electron/core/workbook/types.js';
import { normalised, serviceState, type SheetData } from './dataset.js';
import { apiClient, clearRequests, cli, isWrite, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let dir: string;
let configDir: string;
let jobsDir: string;

const run = (args: string[]) => cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir, configDir });

async function xlsx(file: string, sheets: Record<string, (string | number | null)[][]>): Promise<string> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  const p = path.join(dir, file);
  await wb.xlsx.writeFile(p);
  return p;
}
const fieldsOf = (s: DataSheetName) => Object.keys(getSheet(s).columns);
const colOf = (s: DataSheetName, f: string) => String.fromCharCode(65 + fieldsOf(s).indexOf(f));

beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-erp-cli-');
  configDir = path.join(dir, 'config');
  jobsDir = path.join(dir, 'jobs');
  const add = await run(['profile', 'add', 'ERP']);
  expect(add.code, add.stderr).toBe(0);
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
    const file = await xlsx('misnamed.xlsx', {
      'supplier-products': [
        header,
        ...rowsOf(
          header,
          [1, 2, 3].map((i) => ({ ...product(i), truck_distance_km: 22, Kommentar: 'x' })),
        ),
      ],
    });
    const cell = `supplier-products!${colOf('supplier-products', 'truck_km')}1`;
    const v = await run(['validate', file]);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(
      new RegExp(
        `error +${cell.replace(/[-!]/g, '\\$&')} \\(truck_km\\): Column "truck_distance_km" is not a field of supplier-products: did you mean \`truck_km\`\\?`,
      ),
    );
    expect(v.stdout).toContain('ignored columns: Kommentar');
    const p = await run(['plan', file]);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain(`${cell} (truck_km): Column "truck_distance_km"`);
    expect(p.stdout).toContain('supplier-products: 3 row(s); ignored columns: Kommentar');
    // The rows are blocked, never "unchanged" (the workbook says 22, the value would be lost silently).
    expect(p.stdout).toContain('total: 0 create, 0 unchanged, 3 blocked');
    const j = JSON.parse((await run(['plan', file, '--json'])).stdout) as {
      workbook: { sheets: { ignored_columns: { header: string }[] }[] };
    };
    expect(j.workbook.sheets[0].ignored_columns.map((c) => c.header)).toEqual(['Kommentar']);
  });

  it('a missing required column (no action column): validate, plan and import show the header error, and the rows as not read', async () => {
    const fields = fieldsOf('supplier-products').filter((f) => f !== 'unit' && f !== 'action');
    const file = await xlsx('missing.xlsx', {
      'supplier-products': [
        fields,
        ...rowsOf(
          fields,
          [1, 2, 3].map((i) => product(i)),
        ),
      ],
    });
    await clearRequests(sb);
    for (const cmd of ['validate', 'plan', 'import']) {
      const r = await run([cmd, file]);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr, cmd).toMatch(/error +supplier-products!\w+1 \(unit\): Required column unit is missing/);
      expect(r.stdout + r.stderr, cmd).toContain('supplier-products: header error: 3 filled row(s) not read');
    }
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
  });

  it('an empty (unfilled) workbook is an error, exit 2 — never "no problems"', async () => {
    const file = await xlsx('empty.xlsx', { 'supplier-products': [fieldsOf('supplier-products')] });
    const v = await run(['validate', file]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('No data rows');
    const i = await run(['import', file]);
    expect(i.code).toBe(2);
  });

  it('a material code typo is reported at its cause with the closest known code, in the same plan as everything else', async () => {
    const fields = fieldsOf('supplier-products');
    const file = await xlsx('typo.xlsx', {
      'supplier-products': [fields, ...rowsOf(fields, [product(1), product(2, { material_code: 'MAT-SNAD' })])],
    });
    const p = await run(['plan', file]);
    expect(p.code).toBe(2);
    expect(p.stdout).toContain(`supplier-products!${colOf('supplier-products', 'material_code')}3`);
    expect(p.stdout).toContain('did you mean MAT-SAND?');
  });

  it('a PDF given as a source is named as a PDF', async () => {
    const pdf = path.join(dir, 'export.csv');
    fs.writeFileSync(pdf, '%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
    const v = await run(['validate', pdf]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('This is a PDF document');
  });
});

// ---------------------------------------------------------------- the German ERP CSV set

const P = 'ERPA';
const expectedCsv: SheetData = {
  'supplier-companies': [
    { external_id: `${P}-70001`, name: 'Müller Kieswerke GmbH', country: 'DE' },
    { external_id: `${P}-70002`, name: 'Österreichische Sand AG', country: 'AT' },
  ],
  'supplier-plants': [
    {
      external_id: `${P}-W1`,
      name: 'Kieswerk Eching (Süd)',
      supplier_company_external_id: `${P}-70001`,
      country: 'DE',
      city: 'Eching',
    },
    {
      external_id: `${P}-W2`,
      name: 'Sandgrube Linz',
      supplier_company_external_id: `${P}-70002`,
      country: 'AT',
      city: 'Linz',
    },
  ],
  'supplier-products': [
    {
      external_id: `${P}-M1`,
      name: 'Sand 0/2, gewaschen',
      plant_code: 'PL-MUC',
      material_code: 'MAT-SAND',
      supplier_plant_external_id: `${P}-W1`,
      unit: 'T',
      truck_km: 12.5,
      train_km: 1250.5,
      secondary_percentage: 30,
    },
    {
      external_id: `${P}-M2`,
      name: 'Kies 8/16 „grob“',
      plant_code: 'PL-MUC',
      material_code: 'MAT-GRAVEL',
      supplier_plant_external_id: `${P}-W2`,
      unit: 'KG',
      truck_km: 18,
      train_km: null,
      secondary_percentage: null,
    },
  ],
};
const csvMapping = {
  version: 1,
  name: 'SAP MM monthly',
  sheets: {
    'supplier-companies': {
      source: 'LIEF_*.csv',
      header_row: 2,
      columns: { Kreditor: 'external_id', Name: 'name', Land: 'country' },
      ignore: ['Bemerkung'],
      values: { country: { Deutschland: 'DE', Österreich: 'AT' } },
    },
    'supplier-plants': {
      source: 'WERKE_*.csv',
      header_row: 2,
      columns: {
        Lieferwerk: 'external_id',
        Bezeichnung: 'name',
        Kreditor: 'supplier_company_external_id',
        Ort: 'city',
        Land: 'country',
      },
      values: { country: { Deutschland: 'DE', Österreich: 'AT' } },
    },
    'supplier-products': {
      source: 'MAT_*.csv',
      header_row: 2,
      columns: {
        Materialnummer: 'external_id',
        Materialkurztext: 'name',
        Werk: 'plant_code',
        Materialart: 'material_code',
        Lieferwerk: 'supplier_plant_external_id',
        ME: 'unit',
        'LKW km': 'truck_km',
        'Bahn km': 'train_km',
        'Recyclinganteil %': 'secondary_percentage',
      },
      ignore: ['Kommentar'],
      values: { unit: { Stück: 'UNIT', kg: 'KG', to: 'T' } },
    },
  },
  csv: { delimiter: ';', encoding: 'windows-1252', decimal: ',' },
};

function writeCsv(name: string, lines: string[]): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1252'));
  return p;
}

describe('a German ERP CSV set through a saved mapping', () => {
  let files: string[];
  beforeAll(() => {
    files = [
      writeCsv('LIEF_2025-11.csv', [
        'Kreditorenstamm Export 30.11.2025;;;',
        'Kreditor;Name;Land;Bemerkung',
        `${P}-70001;Müller Kieswerke GmbH;Deutschland;Stammlieferant`,
        `${P}-70002;Österreichische Sand AG;Österreich;`,
      ]),
      writeCsv('WERKE_2025-11.csv', [
        'Lieferwerke;;;;',
        'Lieferwerk;Bezeichnung;Kreditor;Ort;Land',
        `${P}-W1;Kieswerk Eching (Süd);${P}-70001;Eching;Deutschland`,
        `${P}-W2;Sandgrube Linz;${P}-70002;Linz;Österreich`,
      ]),
      writeCsv('MAT_2025-11.csv', [
        'Materialstamm Werk München – Stand 30.11.2025',
        'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
        `${P}-M1;"Sand 0/2, gewaschen";PL-MUC;MAT-SAND;${P}-W1;to;12,5;1.250,5;30;geprüft`,
        `${P}-M2;Kies 8/16 „grob“;PL-MUC;MAT-GRAVEL;${P}-W2;kg;18;;;`,
      ]),
    ];
  });

  it('mapping save → import --mapping NAME: exactly the ERP data on the service; a re-import sends no write', async () => {
    fs.writeFileSync(path.join(dir, 'sap.json'), JSON.stringify(csvMapping, null, 2));
    const save = await run(['mapping', 'save', 'sap.json', '--profile', 'ERP']);
    expect(save.code, save.stderr).toBe(0);
    const list = await run(['mapping', 'list', '--profile', 'ERP']);
    expect(list.stdout).toContain('SAP MM monthly');

    const v = await run(['validate', ...files, '--mapping', 'SAP MM monthly', '--profile', 'ERP']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('supplier-products (MAT_2025-11.csv): 2 row(s); ignored columns: Kommentar');

    const imp = await run(['import', ...files, '--mapping', 'SAP MM monthly', '--profile', 'ERP']);
    expect(imp.code, imp.stderr + imp.stdout).toBe(0);
    const state = await serviceState(apiClient(sb), P);
    const want = normalised(expectedCsv);
    for (const s of ['supplier-companies', 'supplier-plants', 'supplier-products'] as const)
      expect(state[s], s).toEqual(want[s]);

    await clearRequests(sb);
    const again = await run(['import', ...files, '--mapping', 'SAP MM monthly', '--profile', 'ERP']);
    expect(again.code, again.stderr).toBe(0);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
  });

  it("--report DIR / --failed DIR: results and failed rows as CSV in the source's layout, encoding and delimiter", async () => {
    const src = writeCsv('MAT_2026-01.csv', [
      'Materialstamm Werk München – Stand 31.01.2026',
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
      `${P}-M4;Kies 2/8 „fein“;PL-MUC;MAT-GRAVEL;${P}-W1;kg;7,5;;;neu`,
      `${P}-M5;Sand;PL-NOWHERE;MAT-SAND;${P}-W1;kg;3;;;falsches Werk`,
    ]);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const r = await run([
      'import',
      src,
      '--mapping',
      'SAP MM monthly',
      '--profile',
      'ERP',
      '--skip-blocked',
      '--report',
      'out',
      '--failed',
      'out',
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    const read = (f: string) => iconv.decode(fs.readFileSync(path.join(out, f)), 'windows-1252').split('\r\n');
    const results = read('MAT_2026-01.results.csv');
    expect(results[0]).toBe('Materialstamm Werk München – Stand 31.01.2026');
    expect(results[1]).toBe(
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar;_result;_id;_err_code;_message',
    );
    expect(results[2]).toMatch(
      new RegExp(`^${P}-M4;Kies 2/8 „fein“;PL-MUC;MAT-GRAVEL;${P}-W1;kg;7,5;;;neu;created;[0-9a-f-]{36};;$`),
    );
    expect(results[3]).toMatch(new RegExp(`^${P}-M5;Sand;PL-NOWHERE;.*;skipped;;;.*PL-NOWHERE`));
    const failed = read('MAT_2026-01.failed.csv');
    expect(failed.slice(0, 2)).toEqual(results.slice(0, 2));
    expect(failed[2]).toBe(results[3]);
    expect(failed[3]).toBe('');
    // The failed-rows file is read again with the same mapping: the row, at the same cell addresses.
    const again = await run(['validate', path.join(out, 'MAT_2026-01.failed.csv'), '--mapping', 'sap.json']);
    expect(again.stdout).toContain('supplier-products (MAT_2026-01.failed.csv): 1 row(s)');
  });

  it("a workbook and CSV files mixed: the mapping's csv settings apply to the CSVs (a BOM and a delimiter of the file's own win); --report DIR / --failed DIR get the workbook's results workbooks and each CSV's results CSVs", async () => {
    const book = await xlsx('suppliers-mixed.xlsx', {
      'supplier-companies': [fieldsOf('supplier-companies'), [`${P}-MX1`, 'Mischwerk GmbH', 'DE']],
    });
    // Excel's "CSV UTF-8" (BOM) with "," among the Windows-1252 ";" exports of the mapping
    const plants = path.join(dir, 'supplier-plants.csv');
    fs.writeFileSync(
      plants,
      `\uFEFFexternal_id,name,supplier_company_external_id,country,city\r\n${P}-MXW1,Kieswerk Süd,${P}-MX1,DE,Ulm\r\n`,
    );
    const mat = writeCsv('MAT_2026-03.csv', [
      'Materialstamm März',
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
      `${P}-MX-M1;Sand 0/4;PL-MUC;MAT-SAND;${P}-MXW1;kg;4,5;;;`,
      `${P}-MX-M2;Sand;PL-NOWHERE;MAT-SAND;${P}-MXW1;kg;3;;;falsches Werk`,
    ]);
    const m = {
      version: 1,
      sheets: { 'supplier-products': csvMapping.sheets['supplier-products'] },
      csv: csvMapping.csv,
    };
    fs.writeFileSync(path.join(dir, 'mixed.json'), JSON.stringify(m));
    const out = path.join(dir, 'out-mixed');
    fs.mkdirSync(out);
    const r = await run([
      'import',
      book,
      plants,
      mat,
      '--mapping',
      'mixed.json',
      '--skip-blocked',
      '--report',
      'out-mixed',
      '--failed',
      'out-mixed',
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    expect(fs.readdirSync(out).sort()).toEqual([
      'MAT_2026-03.failed.csv',
      'MAT_2026-03.results.csv',
      'supplier-plants.failed.csv',
      'supplier-plants.results.csv',
      'suppliers-mixed.failed.xlsx',
      'suppliers-mixed.results.xlsx',
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(out, 'suppliers-mixed.results.xlsx'));
    const ws = wb.getWorksheet('supplier-companies')!;
    const header = (ws.getRow(1).values as unknown[]).map(String);
    expect(String(ws.getRow(2).getCell(header.indexOf('_result')).value)).toBe('created');
    // the CSV written as it came: UTF-8 with its BOM and ","
    const pr = fs.readFileSync(path.join(out, 'supplier-plants.results.csv'));
    expect([...pr.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(pr.toString('utf8').slice(1).split('\r\n')[1]).toMatch(
      new RegExp(`^${P}-MXW1,Kieswerk Süd,${P}-MX1,DE,Ulm,created,[0-9a-f-]{36},,$`),
    );
    const mr = iconv.decode(fs.readFileSync(path.join(out, 'MAT_2026-03.results.csv')), 'windows-1252').split('\r\n');
    expect(mr[2]).toMatch(/;created;/);
    expect(mr[3]).toMatch(/;skipped;/);
    expect(
      iconv.decode(fs.readFileSync(path.join(out, 'MAT_2026-03.failed.csv')), 'windows-1252').split('\r\n')[2],
    ).toBe(mr[3]);
    expect(r.stdout).toContain(`results: ${path.join(out, 'suppliers-mixed.results.xlsx')}`);
    const state = await serviceState(apiClient(sb), P);
    expect(state['supplier-plants']).toEqual(
      expect.arrayContaining(
        normalised({
          'supplier-plants': [
            {
              external_id: `${P}-MXW1`,
              name: 'Kieswerk Süd',
              supplier_company_external_id: `${P}-MX1`,
              country: 'DE',
              city: 'Ulm',
            },
          ],
        })['supplier-plants']!,
      ),
    );
  });

  it('two months of the same export (MAT_2026-04.csv, MAT_2026-05.csv by one glob) feed one sheet: plan names each row at its file, results go back to each file; a duplicate across them is refused at both cells', async () => {
    const header =
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar';
    const apr = writeCsv('MAT_2026-04.csv', [
      'Materialstamm April',
      header,
      `${P}-A1;Sand April;PL-MUC;MAT-SAND;;kg;1,5;;;`,
    ]);
    const may = writeCsv('MAT_2026-05.csv', [
      'Materialstamm Mai',
      header,
      `${P}-B1;Kies Mai;PL-MUC;MAT-GRAVEL;;kg;2,5;;;`,
      `${P}-B2;Sand Mai;PL-NOWHERE;MAT-SAND;;kg;3;;;`,
    ]);
    const m = {
      version: 1,
      sheets: { 'supplier-products': csvMapping.sheets['supplier-products'] },
      csv: csvMapping.csv,
    };
    fs.writeFileSync(path.join(dir, 'months.json'), JSON.stringify(m));
    const plan = await run(['plan', apr, may, '--mapping', 'months.json']);
    expect(plan.stdout).toContain(
      'supplier-products (MAT_2026-04.csv + MAT_2026-05.csv): 3 row(s); ignored columns: Kommentar\n',
    );
    expect(plan.stdout).toMatch(new RegExp(`create +supplier product ${P}-A1 +\\(MAT_2026-04\\.csv!3\\)`));
    expect(plan.stdout).toMatch(new RegExp(`create +supplier product ${P}-B1 +\\(MAT_2026-05\\.csv!3\\)`));
    expect(plan.stdout).toMatch(/blocked .*\(MAT_2026-05\.csv!4\)/);
    const out = path.join(dir, 'out-months');
    fs.mkdirSync(out);
    const r = await run(['import', apr, may, '--mapping', 'months.json', '--skip-blocked', '--report', 'out-months']);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    const read = (f: string) => iconv.decode(fs.readFileSync(path.join(out, f)), 'windows-1252').split('\r\n');
    const a = read('MAT_2026-04.results.csv');
    expect(a[2]).toMatch(new RegExp(`^${P}-A1;.*;created;[0-9a-f-]{36};;$`));
    expect(a[3]).toBe('');
    const b = read('MAT_2026-05.results.csv');
    expect(b[2]).toMatch(new RegExp(`^${P}-B1;.*;created;[0-9a-f-]{36};;$`));
    expect(b[3]).toMatch(new RegExp(`^${P}-B2;.*;skipped;;;.*PL-NOWHERE`));
    // the same external_id in both files: the duplicate rule, at each file's cell
    const dup = writeCsv('MAT_2026-06.csv', ['Juni', header, `${P}-A1;Sand Juni;PL-MUC;MAT-SAND;;kg;1;;;`]);
    const v = await run(['validate', apr, dup, '--mapping', 'months.json']);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(
      `MAT_2026-04.csv!A3 (external_id): external_id "${P}-A1" appears 2 times in supplier-products (rows MAT_2026-04.csv!3, MAT_2026-06.csv!3)`,
    );
    expect(v.stderr).toContain('MAT_2026-06.csv!A3 (external_id)');
  });

  it('an error in a CSV source points at the source file and cell', async () => {
    const bad = writeCsv('MAT_2025-12.csv', [
      'Materialstamm',
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
      `${P}-M3;Sand;PL-MUC;MAT-SAND;;kg;zwölf;;;`,
    ]);
    const v = await run(['validate', bad, '--mapping', 'sap.json']);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/error +MAT_2025-12\.csv!G3 \(truck_km\): truck_km: expected/);
  });

  it('a mapping with a typo is refused with its path', async () => {
    fs.writeFileSync(
      path.join(dir, 'typo.json'),
      JSON.stringify({
        ...csvMapping,
        sheets: { 'supplier-companies': { ...csvMapping.sheets['supplier-companies'], colums: {} } },
      }),
    );
    const v = await run(['validate', files[0], '--mapping', 'typo.json']);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('sheets.supplier-companies.colums: unknown key');
  });
});

// ---------------------------------------------------------------- an ERP workbook with its own headers

const Q = 'ERPB';
describe('an ERP .xlsx with its own headers through a saved mapping', () => {
  it('imports exactly, re-imports with zero writes; mapping show / remove', async () => {
    const file = await xlsx('navision.xlsx', {
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
    fs.writeFileSync(path.join(dir, 'nav.json'), JSON.stringify(mapping));
    expect((await run(['mapping', 'save', 'nav.json', '--profile', 'ERP'])).code).toBe(0);
    const imp = await run(['import', file, '--mapping', 'navision', '--profile', 'ERP']);
    expect(imp.code, imp.stderr + imp.stdout).toBe(0);
    const state = await serviceState(apiClient(sb), Q);
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
    await clearRequests(sb);
    expect((await run(['import', file, '--mapping', 'Navision', '--profile', 'ERP'])).code).toBe(0);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);

    const show = await run(['mapping', 'show', 'Navision', '--profile', 'ERP']);
    expect(JSON.parse(show.stdout)).toMatchObject({ version: 1, name: 'Navision' });
    expect((await run(['mapping', 'remove', 'Navision', '--profile', 'ERP'])).code).toBe(0);
    const gone = await run(['validate', file, '--mapping', 'Navision', '--profile', 'ERP']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('no mapping file or saved mapping "Navision"');
  });
});

describe('mapping suggest', () => {
  it('writes a draft with confidences, names the unmapped required fields and exits 2 while one is unmapped; 0 once all are', async () => {
    const f = writeCsv('Einkauf_2025-11.csv', [
      'Einkaufsdaten für Werk München',
      '',
      'Lieferprodukt-ID;Materialbezeichnung (lang);Werk Nr.;Material-Code;Mengeneinh.;LKW-Distanz (km);Notiz',
      'X1;Sand;PL-MUC;MAT-SAND;kg;12,5;',
    ]);
    const r = await run(['mapping', 'suggest', f, '-o', 'draft.json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Einkauf_2025-11.csv → supplier-products (header in row 3)');
    expect(r.stdout).toMatch(/LKW-Distanz \(km\) → truck_km {2}\(synonym, \d+ %\)/);
    expect(r.stdout).toContain('required fields without a column:');
    const draft = JSON.parse(fs.readFileSync(path.join(dir, 'draft.json'), 'utf8')) as {
      suggestions: { confidence: number }[];
      unmapped_required: Record<string, string[]>;
    };
    expect(draft.suggestions.length).toBeGreaterThan(3);
    expect(draft.unmapped_required['supplier-products']).toContain('plant_code');

    const ok = writeCsv('kreditoren.csv', ['Kreditorennummer;Firmenname;Land', 'X;Y;DE']);
    const s = await run(['mapping', 'suggest', ok, '-o', 'draft2.json']);
    expect(s.code, s.stdout).toBe(0);
    expect(s.stdout).toContain('→ supplier-companies (header in row 1)');
  });
});
