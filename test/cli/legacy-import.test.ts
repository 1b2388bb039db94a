/**
 * Legacy files through the CLI against the in-process sandbox: `validate` of a real .xls and .ods (written by
 * LibreOffice Calc), an HTML table and tab-separated text saved with an .xls name; `mapping suggest` of an .xls
 * written by Excel; then `plan` and `import` of the .xls, landing exactly, with its results workbook (.xlsx)
 * marking every row; and a file of another format told what it is under its own name.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../fixtures/dataset.js';
import { LO_PREFIX, LO_SIZE } from '../fixtures/libreoffice/make-fixtures.js';
import { normalised, serviceState } from './dataset.js';
import { apiClient, cli, ROOT, sandbox, tmpDir, type Sandbox } from './helpers.js';

const LO = path.join(ROOT, 'test/fixtures/libreoffice');
const LEGACY = path.join(ROOT, 'test/fixtures/legacy');
let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-legacy-cli-');
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) =>
  cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir: path.join(dir, 'jobs') });

interface ValidateJson {
  ok: boolean;
  file: string;
  sheets: { sheet: string; name_in_file: string; rows: number }[];
  issues: { code: string; message: string }[];
}
const rowsOf = (j: ValidateJson) => Object.fromEntries(j.sheets.filter((s) => s.rows).map((s) => [s.sheet, s.rows]));

describe('validate reads legacy files', () => {
  it.each(['onboarding-filled.xls', 'onboarding-filled.ods'])(
    '%s (LibreOffice Calc): every sheet and row',
    async (f) => {
      const v = await run(['validate', path.join(LO, f), '--json']);
      expect(v.code, v.stderr).toBe(0);
      const j = JSON.parse(v.stdout) as ValidateJson;
      expect(j).toMatchObject({ ok: true, file: f });
      expect(rowsOf(j)).toEqual({
        'supplier-companies': 3,
        'supplier-plants': 3,
        'supplier-products': 9,
        'hazardous-substances': 2,
        silos: 2,
        'silo-items': 4,
        'product-instances': 3,
        'prechain-products': 1,
        bom: 8,
      });
    },
  );

  it('an HTML table and tab-separated text saved with an .xls name: the header read, the rows counted', async () => {
    fs.writeFileSync(
      path.join(dir, 'supplier-companies.xls'),
      '<table><tr><th>external_id</th><th>name</th><th>country</th></tr>' +
        '<tr><td>XLSH-1</td><td>Kieswerk Rhein GmbH</td><td>DE</td></tr>' +
        '<tr><td>XLSH-2</td><td>Zementwerke Süd AG</td><td>AT</td></tr></table>',
    );
    fs.writeFileSync(
      path.join(dir, 'supplier-plants.xls'),
      iconv.encode(
        'external_id\tname\tsupplier_company_external_id\tcountry\r\nXLST-1\tWerk Süd\tXLSH-1\tDE\r\n',
        'windows-1252',
      ),
    );
    const html = await run(['validate', 'supplier-companies.xls', '--json']);
    expect(html.code, html.stderr).toBe(0);
    expect((JSON.parse(html.stdout) as ValidateJson).sheets).toEqual([
      expect.objectContaining({ sheet: 'supplier-companies', name_in_file: 'supplier-companies', rows: 2 }),
    ]);
    const tsv = await run(['validate', 'supplier-plants.xls']);
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(tsv.stdout).toContain('supplier-plants: 1 row(s)');
  });

  it('mapping suggest of an .xls written by Excel names its sheets and their headers', async () => {
    const s = await run(['mapping', 'suggest', path.join(LEGACY, 'profiles.xls'), '-o', 'draft.json']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout + s.stderr).toContain('AXISDEF: no sheet found for its headers (PROFIL, i, d)');
    expect(fs.existsSync(path.join(dir, 'draft.json'))).toBe(true);
  });

  it('a SYLK file is told it is one, never that it has an .xlsx name', async () => {
    fs.writeFileSync(path.join(dir, 'export.slk'), 'ID;PWXL;N;E\r\nC;Y1;X1;K"external_id"\r\nE\r\n');
    const v = await run(['validate', 'export.slk']);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('This is a SYLK file');
    expect(v.stderr).not.toContain('.xlsx name');
  });
});

describe('an .xls is planned and imported', () => {
  it('plan, then import with --report: the service holds exactly the workbook, the results workbook marks each row', async () => {
    const xls = path.join(dir, 'onboarding-filled.xls');
    fs.copyFileSync(path.join(LO, 'onboarding-filled.xls'), xls);
    const p = await run(['plan', xls]);
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toMatch(/supplier-products: 9 row\(s\)/);

    const report = path.join(dir, 'onboarding-filled.results.xlsx');
    const i = await run(['import', xls, '--report', report]);
    expect(i.code, `${i.stdout}\n${i.stderr}`).toBe(0);
    const client = apiClient(sb);
    try {
      expect(await serviceState(client, LO_PREFIX)).toEqual(normalised(buildDataset(LO_SIZE, LO_PREFIX)));
    } finally {
      await client.close();
    }
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(report);
    const ws = wb.getWorksheet('supplier-products')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const at = header.indexOf('_result') + 1;
    expect(at).toBeGreaterThan(0);
    const results = [];
    for (let r = 2; r <= 10; r++) results.push(ws.getRow(r).getCell(at).value);
    expect(results).toEqual(Array(9).fill('created'));
    expect(ws.getRow(2).getCell(1).value).toBe('LO-SP-00000');

    const again = await run(['plan', xls]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/total: 0 create, \d+ unchanged/);
  });
});

describe('a watch folder takes legacy workbooks', () => {
  it('watch --once imports an .ods dropped in its inbox and writes its results workbook under the drop name', async () => {
    const w = path.join(dir, 'watch');
    fs.mkdirSync(path.join(w, 'inbox'), { recursive: true });
    fs.copyFileSync(path.join(LO, 'onboarding-filled.ods'), path.join(w, 'inbox', 'erp-export.ods'));
    fs.writeFileSync(path.join(w, 'inbox', 'erp-export.ods.ready'), '');
    const r = await cli(['watch', w, '--once', '--json'], {
      baseUrl: sb.baseUrl,
      key: sb.ownerKey,
      jobsDir: path.join(w, 'jobs'),
      env: {
        SUPPLY_LOADER_WATCH_STABLE_MS: '60000',
        SUPPLY_LOADER_WATCH_POLL_MS: '20',
        SUPPLY_LOADER_WATCH_ONCE_WAIT_MS: '200',
      },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const out = JSON.parse(r.stdout) as { drops: { files: string[]; outcome: string; folder: string }[] };
    expect(out.drops).toEqual([
      expect.objectContaining({ files: ['erp-export.ods', 'erp-export.ods.ready'], outcome: 'done' }),
    ]);
    expect(fs.readdirSync(out.drops[0].folder)).toContain('erp-export.results.xlsx');
  });
});
