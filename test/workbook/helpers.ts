/** Helpers for the workbook tests: temp dirs, workbooks built with exceljs, raw zips for hostile files. */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { getSheet } from '../../core/workbook/registry.js';
import type { DataSheetName } from '../../core/workbook/types.js';

export function tempDir(prefix = 'sl-wb-'): { dir: string; file: (name: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, file: (name) => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type CellInput = ExcelJS.CellValue;

/** A sheet as rows of cells; row 1 is the header. */
export type SheetInput = CellInput[][];

/** Write a workbook with exceljs (as Excel-like as exceljs gets). `tweak` may merge cells, hide sheets, etc. */
export async function writeXlsx(
  path: string,
  sheets: Record<string, SheetInput>,
  tweak?: (wb: ExcelJS.Workbook) => void,
): Promise<void> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    rows.forEach((r, i) => {
      const row = ws.getRow(i + 1);
      r.forEach((v, j) => {
        if (v !== undefined && v !== null) row.getCell(j + 1).value = v;
      });
    });
  }
  tweak?.(wb);
  await wb.xlsx.writeFile(path);
}

/** The registry's header of a sheet, in its order. */
export function headerOf(sheet: DataSheetName): string[] {
  return Object.keys(getSheet(sheet).columns);
}

/** A row for a sheet from a record, in the header's order. */
export function rowOf(sheet: DataSheetName, values: Record<string, CellInput>): CellInput[] {
  return headerOf(sheet).map((f) => values[f] ?? null);
}

/** A minimal valid supplier-products row. */
export function supplierProduct(i: number, extra: Record<string, CellInput> = {}): Record<string, CellInput> {
  return {
    external_id: `SP-${i}`,
    name: `Product ${i}`,
    plant_code: 'P1',
    material_code: 'M1',
    supplier_plant_external_id: 'SPL-1',
    unit: 'KG',
    ...extra,
  };
}

// ---------------------------------------------------------------- raw zips

export async function zipEntries(path: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((res, rej) =>
    yauzl.open(path, { lazyEntries: true }, (e, z) => (e || !z ? rej(e) : res(z))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, s) => {
        if (err || !s) return reject(err);
        const chunks: Buffer[] = [];
        s.on('data', (c: Buffer) => chunks.push(c));
        s.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
        s.on('error', reject);
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

export interface RawEntry {
  name: string;
  data: Buffer;
  /** Size written into the headers instead of the real one (a lying zip bomb). */
  declaredSize?: number;
}

/** Write a zip by hand (deflated entries, central directory), so tests can build hostile files. */
export async function writeZip(path: string, entries: RawEntry[]): Promise<void> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data);
    const size = e.declaredSize ?? e.data.length;
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(path, Buffer.concat([...locals, cd, end]));
}

/** Rewrite a workbook's zip with some parts changed (e.g. an XML part with a DOCTYPE). */
export async function rewriteZip(
  from: string,
  to: string,
  change: (name: string, data: Buffer) => Buffer | RawEntry,
): Promise<void> {
  const entries = await zipEntries(from);
  const out: RawEntry[] = [];
  for (const [name, data] of entries) {
    const r = change(name, data);
    out.push(Buffer.isBuffer(r) ? { name, data: r } : r);
  }
  await writeZip(to, out);
}
