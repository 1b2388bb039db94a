/**
 * A German ERP CSV set (Windows-1252, `;`, decimal comma, own headers, a title row) through the CLI and a saved
 * mapping: imported to the exact service state and re-imported with zero writes; results and failed rows as CSV
 * in the source's layout; a workbook and CSV files mixed; two months of one export feeding one sheet; errors at
 * the source file and cell; a mapping with a typo refused with its path.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalised, serviceState, type SheetData } from './dataset.js';
import { apiClient, clearRequests, isWrite, requests } from './helpers.js';
import { erpEnv, fieldsOf } from './erp-env.js';

const env = erpEnv();

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

describe('a German ERP CSV set through a saved mapping', () => {
  let files: string[];
  beforeAll(() => {
    files = [
      env.writeCsv('LIEF_2025-11.csv', [
        'Kreditorenstamm Export 30.11.2025;;;',
        'Kreditor;Name;Land;Bemerkung',
        `${P}-70001;Müller Kieswerke GmbH;Deutschland;Stammlieferant`,
        `${P}-70002;Österreichische Sand AG;Österreich;`,
      ]),
      env.writeCsv('WERKE_2025-11.csv', [
        'Lieferwerke;;;;',
        'Lieferwerk;Bezeichnung;Kreditor;Ort;Land',
        `${P}-W1;Kieswerk Eching (Süd);${P}-70001;Eching;Deutschland`,
        `${P}-W2;Sandgrube Linz;${P}-70002;Linz;Österreich`,
      ]),
      env.writeCsv('MAT_2025-11.csv', [
        'Materialstamm Werk München – Stand 30.11.2025',
        'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
        `${P}-M1;"Sand 0/2, gewaschen";PL-MUC;MAT-SAND;${P}-W1;to;12,5;1.250,5;30;geprüft`,
        `${P}-M2;Kies 8/16 „grob“;PL-MUC;MAT-GRAVEL;${P}-W2;kg;18;;;`,
      ]),
    ];
  });

  it('mapping save → import --mapping NAME: exactly the ERP data on the service; a re-import sends no write', async () => {
    fs.writeFileSync(path.join(env.dir, 'sap.json'), JSON.stringify(csvMapping, null, 2));
    const save = await env.run(['mapping', 'save', 'sap.json', '--profile', 'ERP']);
    expect(save.code, save.stderr).toBe(0);
    const list = await env.run(['mapping', 'list', '--profile', 'ERP']);
    expect(list.stdout).toContain('SAP MM monthly');

    const v = await env.run(['validate', ...files, '--mapping', 'SAP MM monthly', '--profile', 'ERP']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('supplier-products (MAT_2025-11.csv): 2 row(s); ignored columns: Kommentar');

    const imp = await env.run(['import', ...files, '--mapping', 'SAP MM monthly', '--profile', 'ERP']);
    expect(imp.code, imp.stderr + imp.stdout).toBe(0);
    const state = await serviceState(apiClient(env.sb), P);
    const want = normalised(expectedCsv);
    for (const s of ['supplier-companies', 'supplier-plants', 'supplier-products'] as const)
      expect(state[s], s).toEqual(want[s]);

    await clearRequests(env.sb);
    const again = await env.run(['import', ...files, '--mapping', 'SAP MM monthly', '--profile', 'ERP']);
    expect(again.code, again.stderr).toBe(0);
    expect((await requests(env.sb)).filter(isWrite)).toEqual([]);
  });

  it("--report DIR / --failed DIR: results and failed rows as CSV in the source's layout, encoding and delimiter", async () => {
    const src = env.writeCsv('MAT_2026-01.csv', [
      'Materialstamm Werk München – Stand 31.01.2026',
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
      `${P}-M4;Kies 2/8 „fein“;PL-MUC;MAT-GRAVEL;${P}-W1;kg;7,5;;;neu`,
      `${P}-M5;Sand;PL-NOWHERE;MAT-SAND;${P}-W1;kg;3;;;falsches Werk`,
    ]);
    const out = path.join(env.dir, 'out');
    fs.mkdirSync(out);
    const r = await env.run([
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
    const again = await env.run(['validate', path.join(out, 'MAT_2026-01.failed.csv'), '--mapping', 'sap.json']);
    expect(again.stdout).toContain('supplier-products (MAT_2026-01.failed.csv): 1 row(s)');
  });

  it("a workbook and CSV files mixed: the mapping's csv settings apply to the CSVs (a BOM and a delimiter of the file's own win); --report DIR / --failed DIR get the workbook's results workbooks and each CSV's results CSVs", async () => {
    const book = await env.xlsx('suppliers-mixed.xlsx', {
      'supplier-companies': [fieldsOf('supplier-companies'), [`${P}-MX1`, 'Mischwerk GmbH', 'DE']],
    });
    // Excel's "CSV UTF-8" (BOM) with "," among the Windows-1252 ";" exports of the mapping
    const plants = path.join(env.dir, 'supplier-plants.csv');
    fs.writeFileSync(
      plants,
      `\uFEFFexternal_id,name,supplier_company_external_id,country,city\r\n${P}-MXW1,Kieswerk Süd,${P}-MX1,DE,Ulm\r\n`,
    );
    const mat = env.writeCsv('MAT_2026-03.csv', [
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
    fs.writeFileSync(path.join(env.dir, 'mixed.json'), JSON.stringify(m));
    const out = path.join(env.dir, 'out-mixed');
    fs.mkdirSync(out);
    const r = await env.run([
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
    const state = await serviceState(apiClient(env.sb), P);
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
    const apr = env.writeCsv('MAT_2026-04.csv', [
      'Materialstamm April',
      header,
      `${P}-A1;Sand April;PL-MUC;MAT-SAND;;kg;1,5;;;`,
    ]);
    const may = env.writeCsv('MAT_2026-05.csv', [
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
    fs.writeFileSync(path.join(env.dir, 'months.json'), JSON.stringify(m));
    const plan = await env.run(['plan', apr, may, '--mapping', 'months.json']);
    expect(plan.stdout).toContain(
      'supplier-products (MAT_2026-04.csv + MAT_2026-05.csv): 3 row(s); ignored columns: Kommentar\n',
    );
    expect(plan.stdout).toMatch(new RegExp(`create +supplier product ${P}-A1 +\\(MAT_2026-04\\.csv!3\\)`));
    expect(plan.stdout).toMatch(new RegExp(`create +supplier product ${P}-B1 +\\(MAT_2026-05\\.csv!3\\)`));
    expect(plan.stdout).toMatch(/blocked .*\(MAT_2026-05\.csv!4\)/);
    const out = path.join(env.dir, 'out-months');
    fs.mkdirSync(out);
    const r = await env.run([
      'import',
      apr,
      may,
      '--mapping',
      'months.json',
      '--skip-blocked',
      '--report',
      'out-months',
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(1);
    const read = (f: string) => iconv.decode(fs.readFileSync(path.join(out, f)), 'windows-1252').split('\r\n');
    const a = read('MAT_2026-04.results.csv');
    expect(a[2]).toMatch(new RegExp(`^${P}-A1;.*;created;[0-9a-f-]{36};;$`));
    expect(a[3]).toBe('');
    const b = read('MAT_2026-05.results.csv');
    expect(b[2]).toMatch(new RegExp(`^${P}-B1;.*;created;[0-9a-f-]{36};;$`));
    expect(b[3]).toMatch(new RegExp(`^${P}-B2;.*;skipped;;;.*PL-NOWHERE`));
    // the same external_id in both files: the duplicate rule, at each file's cell
    const dup = env.writeCsv('MAT_2026-06.csv', ['Juni', header, `${P}-A1;Sand Juni;PL-MUC;MAT-SAND;;kg;1;;;`]);
    const v = await env.run(['validate', apr, dup, '--mapping', 'months.json']);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(
      `MAT_2026-04.csv!A3 (external_id): external_id "${P}-A1" appears 2 times in supplier-products (rows MAT_2026-04.csv!3, MAT_2026-06.csv!3)`,
    );
    expect(v.stderr).toContain('MAT_2026-06.csv!A3 (external_id)');
  });

  it('an error in a CSV source points at the source file and cell', async () => {
    const bad = env.writeCsv('MAT_2025-12.csv', [
      'Materialstamm',
      'Materialnummer;Materialkurztext;Werk;Materialart;Lieferwerk;ME;LKW km;Bahn km;Recyclinganteil %;Kommentar',
      `${P}-M3;Sand;PL-MUC;MAT-SAND;;kg;zwölf;;;`,
    ]);
    const v = await env.run(['validate', bad, '--mapping', 'sap.json']);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/error +MAT_2025-12\.csv!G3 \(truck_km\): truck_km: expected/);
  });

  it('a mapping with a typo is refused with its path', async () => {
    fs.writeFileSync(
      path.join(env.dir, 'typo.json'),
      JSON.stringify({
        ...csvMapping,
        sheets: { 'supplier-companies': { ...csvMapping.sheets['supplier-companies'], colums: {} } },
      }),
    );
    const v = await env.run(['validate', files[0], '--mapping', 'typo.json']);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('sheets.supplier-companies.colums: unknown key');
  });
});

// ---------------------------------------------------------------- an ERP workbook with its own headers
