/**
 * A mirror delete that fails on the service, for a sheet fed by a CSV source with its own headers (through a
 * column mapping): the source's failed-rows CSV gets a row for it though the source has no row of it — the code
 * in the source's identity column, `delete` in its action column, the error in the result columns, in the
 * source's delimiter and encoding — so the file holds as many rows as the job counts failed ones. Through the
 * CLI (`import --failed DIR --report DIR`); then the same file written from the job's folder without the
 * source's columns (as for a job folder of an older version), where the code has no column and is named in
 * the message. The app's Jobs screen download: test/ipc/mirror-failed-rows.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import { writeCsvSourceResults } from '../../core/jobs/csv-sources.js';
import { rowMarks } from '../../core/jobs/row-marks.js';
import { loadIndexed } from '../../core/jobs/run.js';
import type { JobResultSummary } from '../../core/jobs/types.js';
import { apiClient, cli, control, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let jobsDir: string;
const run = (args: string[]) => cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir });

// The ERP's own layout: a title row, the identity column second, an action column, a column nothing reads.
const HEADER = 'Kurztext;Materialnummer;Werk;Materialart;ME;Aktion;Kommentar';
const mapping = {
  version: 1,
  sheets: {
    'supplier-products': {
      source: 'MAT_*.csv',
      header_row: 2,
      columns: {
        Kurztext: 'name',
        Materialnummer: 'external_id',
        Werk: 'plant_code',
        Materialart: 'material_code',
        ME: 'unit',
        Aktion: 'action',
      },
      ignore: ['Kommentar'],
    },
  },
  csv: { delimiter: ';', encoding: 'windows-1252' },
};
const line = (code: string) => `Zement ${code} „grau“;${code};PL-HEID;MAT-CEM1;KG;;`;

function writeCsv(name: string, codes: string[]): string {
  const p = path.join(dir, name);
  fs.writeFileSync(
    p,
    iconv.encode(['Materialstamm Zementwerk', HEADER, ...codes.map(line)].join('\r\n') + '\r\n', 'windows-1252'),
  );
  return p;
}
const readLines = (p: string) =>
  iconv
    .decode(fs.readFileSync(p), 'windows-1252')
    .split('\r\n')
    .filter((l) => l !== '');
const readCsv = (p: string) =>
  parse(iconv.decode(fs.readFileSync(p), 'windows-1252'), { delimiter: ';', relax_column_count: true }) as string[][];

async function faults(only: { method: string; path_suffix: string } | null): Promise<void> {
  await control(sb, 'PUT', '/faults', {
    error_rate: only ? 1 : 0,
    reset_after_commit_rate: 0,
    latency_ms: 0,
    jitter_ms: 0,
    seed: 1,
    only,
  });
}

beforeAll(async () => {
  sb = await sandbox('empty');
  client = apiClient(sb);
  dir = tmpDir('sl-mirror-failed-csv-');
  jobsDir = path.join(dir, 'jobs');
  fs.writeFileSync(path.join(dir, 'mat.json'), JSON.stringify(mapping));
  fs.mkdirSync(path.join(dir, 'out'));
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a failed mirror delete of a CSV-fed sheet', () => {
  it("is one row of the source's failed-rows CSV (code in the identity column, delete in the action column), as many rows as the job's failed count", async () => {
    const base = await run([
      'import',
      writeCsv('MAT_2026-01.csv', ['MC-FAIL', 'MC-FREE', 'MC-KEEP']),
      '--mapping',
      'mat.json',
    ]);
    expect(base.code, base.stderr + base.stdout).toBe(0);
    const failing = await client.supplierProducts.findByExternalId('MC-FAIL');
    expect(failing).toBeTruthy();

    // Every DELETE of MC-FAIL is answered with a 500 (the retries give up); the other delete goes through.
    await faults({ method: 'DELETE', path_suffix: `/supplier-products/${String(failing!.id)}` });
    let r;
    try {
      r = await run([
        'import',
        writeCsv('MAT_2026-02.csv', ['MC-KEEP']),
        '--mapping',
        'mat.json',
        '--mirror',
        'supplier-products',
        '--max-deletes',
        '100',
        '--failed',
        'out',
        '--report',
        'out',
        '--json',
      ]);
    } finally {
      await faults(null);
    }
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { job_id: string; result: JobResultSummary };
    expect(doc.result.counts).toMatchObject({ deleted: 1, failed: 1 });
    expect(await client.supplierProducts.findByExternalId('MC-FREE')).toBeNull();
    expect(await client.supplierProducts.findByExternalId('MC-FAIL')).toBeTruthy();

    const out = path.join(dir, 'out');
    const lines = readLines(path.join(out, 'MAT_2026-02.failed.csv'));
    expect(lines[0]).toBe('Materialstamm Zementwerk');
    expect(lines[1]).toBe(`${HEADER};_result;_id;_err_code;_message`);
    const rows = readCsv(path.join(out, 'MAT_2026-02.failed.csv')).slice(2);
    // exactly the failed delete: as many rows as the job's failed count
    expect(rows).toHaveLength(doc.result.counts.failed ?? 0);
    const [row] = rows;
    expect(row.slice(0, 7)).toEqual(['', 'MC-FAIL', '', '', '', 'delete', '']);
    expect(row[7]).toBe('failed');
    expect(row[9]).not.toBe(''); // the service's error code
    expect(row[10]).toContain('injected server error'); // its message

    // the results CSV names it too, after the source's own row
    const results = readCsv(path.join(out, 'MAT_2026-02.results.csv'));
    expect(results.slice(2).map((l) => l.slice(0, 8))).toEqual([
      [`Zement MC-KEEP „grau“`, 'MC-KEEP', 'PL-HEID', 'MAT-CEM1', 'KG', '', '', 'unchanged'],
      ['', 'MC-FAIL', '', '', '', 'delete', '', 'failed'],
    ]);
    expect(results[3]).toEqual(row);

    // The failed-rows file made later from the job's index, without the source's columns.
    const { index } = await loadIndexed(jobsDir, doc.job_id);
    try {
      const again = path.join(dir, 'again.failed.csv');
      const src = path.join(dir, 'MAT_2026-02.csv');
      const { failedRows } = await writeCsvSourceResults(
        {
          path: src,
          sheet: 'supplier-products',
          headerRow: 2,
          format: { encoding: 'windows-1252', bom: false, delimiter: ';' },
        },
        await rowMarks(index),
        { failed: again },
      );
      // Without the columns (a job folder kept by an older version) the header cells spelled as fields are
      // used; this source has none, so the code is named in the message rather than the row dropped.
      expect(failedRows).toBe(1);
      const older = readCsv(again).slice(2);
      expect(older).toHaveLength(1);
      expect(older[0].slice(0, 8)).toEqual(['', '', '', '', '', '', '', 'failed']);
      expect(older[0][10]).toMatch(/^external_id MC-FAIL: the file has no column for it; injected server error/);
    } finally {
      await index.close();
    }
  });
});
