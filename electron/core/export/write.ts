/**
 * Write exported rows as a workbook in the template format (same sheets, columns, notes, dropdowns), with the
 * hidden `_snapshot` column on the sheets whose rows carry one. Server text is always written as text cells,
 * never as formulas (the format writer sets string values only).
 */
import { rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SNAPSHOT_COLUMN } from '../jobs/snapshot.js';
import { getAnySheet } from '../workbook/registry.js';
import type { SheetDef } from '../workbook/sheet-def.js';
import { writeFormatWorkbook } from '../workbook/template.js';
import type { SheetContent, WritableRow } from '../workbook/xlsx-layout.js';
import type { ExportData } from './collect.js';

const SNAPSHOT_EXTRA = [{ key: SNAPSHOT_COLUMN, header: SNAPSHOT_COLUMN, width: 30, hidden: true }] as const;

/** The export as workbook bytes. */
export async function buildExportWorkbook(data: ExportData): Promise<Buffer> {
  const contents: SheetContent[] = data.sheets.map((s) => {
    const def = getAnySheet(s.name);
    const hasSnapshot = s.rows.some((r) => r[SNAPSHOT_COLUMN] !== undefined);
    return {
      def,
      rows: s.rows as readonly WritableRow[],
      ...(hasSnapshot ? { extraColumns: SNAPSHOT_EXTRA } : {}),
    };
  });
  const instructionsFor: SheetDef[] = contents.map((c) => c.def).filter((d) => !d.referenceOnly);
  return writeFormatWorkbook(contents, { instructionsFor });
}

/** Write the export to `file` (atomically: a temporary file renamed into place). Returns the bytes written. */
export async function writeExportWorkbook(data: ExportData, file: string): Promise<number> {
  const buf = await buildExportWorkbook(data);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(tmp, buf);
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  return buf.length;
}
