/**
 * What the ERP-import tests through the CLI share: per test file one in-process sandbox (demo seed), a working
 * folder with its own config and jobs directories, and a saved profile `ERP`; the CLI run against them, and an
 * .xlsx written into the folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, expect } from 'vitest';
import { getSheet } from '../../core/workbook/registry.js';
import type { DataSheetName } from '../../core/workbook/types.js';
import { cli, sandbox, tmpDir, type Sandbox } from './helpers.js';

export interface ErpEnv {
  /** the working folder (set once the file's beforeAll has run) */
  readonly dir: string;
  /** the file's sandbox (set once the file's beforeAll has run) */
  readonly sb: Sandbox;
  run(args: string[]): ReturnType<typeof cli>;
  xlsx(file: string, sheets: Record<string, (string | number | null)[][]>): Promise<string>;
  /** A CSV file as a German ERP writes it: Windows-1252, CRLF line ends. */
  writeCsv(name: string, lines: string[]): string;
}

/** Registers the file's beforeAll / afterAll: call once at the top of a test file. */
export function erpEnv(): ErpEnv {
  let sb: Sandbox | undefined;
  let dir = '';
  const run = (args: string[]) =>
    cli(args, {
      baseUrl: sb!.baseUrl,
      key: sb!.ownerKey,
      cwd: dir,
      jobsDir: path.join(dir, 'jobs'),
      configDir: path.join(dir, 'config'),
    });
  beforeAll(async () => {
    sb = await sandbox('demo');
    dir = tmpDir('sl-erp-cli-');
    const add = await run(['profile', 'add', 'ERP']);
    expect(add.code, add.stderr).toBe(0);
  });
  afterAll(async () => {
    await sb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get sb() {
      return sb!;
    },
    run,
    async xlsx(file, sheets) {
      const wb = new ExcelJS.Workbook();
      for (const [name, rows] of Object.entries(sheets)) {
        const ws = wb.addWorksheet(name);
        for (const r of rows) ws.addRow(r);
      }
      const p = path.join(dir, file);
      await wb.xlsx.writeFile(p);
      return p;
    },
    writeCsv(name, lines) {
      const p = path.join(dir, name);
      fs.writeFileSync(p, iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1252'));
      return p;
    },
  };
}

export const fieldsOf = (s: DataSheetName) => Object.keys(getSheet(s).columns);
export const colOf = (s: DataSheetName, f: string) => String.fromCharCode(65 + fieldsOf(s).indexOf(f));
