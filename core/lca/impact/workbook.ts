/**
 * The impact report as a workbook, with the LCA export's columns, number formats and cell writer
 * (lca/workbook/columns.ts, sheet.ts): `impact` — one row per instance, year, indicator and module (before,
 * after, change, change in %, blocked before/after), and `impact-sources` — the attribution of each change to
 * the components whose contribution changed, the production figures, or what is not attributed, with the job
 * rows. Indicator names in English and German as the export's indicator data gives them. Written to a
 * temporary file and renamed, so a crash never leaves half a workbook.
 */
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import { writeAtomic } from '../../fs/atomic.js';
import { indicatorInfo } from '../indicators.js';
import { PCT_FORMAT, VALUE_FORMAT, col, text } from '../workbook/columns.js';
import { SheetBuilder, writeSheet } from '../workbook/sheet.js';
import type { ImpactReport } from './types.js';

export interface ImpactWorkbookStats {
  rows: { impact: number; sources: number };
  notes: string[];
}

const KEY_COLUMNS = [
  text('instance_external_id', 20),
  text('plant_code', 12),
  col('year', 8, '0'),
  text('indicator', 16),
  text('indicator_name_en', 34),
  text('indicator_name_de', 34),
  text('module', 9),
  text('unit', 22),
  text('basis', 18),
];

function keyCells(r: {
  external_id: string | null;
  instance_id: string;
  year: number;
  indicator: string;
  module: string;
  unit: string | null;
  basis: string;
}) {
  const info = indicatorInfo(r.indicator);
  return {
    instance_external_id: r.external_id ?? r.instance_id,
    year: r.year,
    indicator: r.indicator || null,
    indicator_name_en: info?.name_en ?? null,
    indicator_name_de: info?.name_de ?? null,
    module: r.module || null,
    unit: r.unit,
    basis: r.basis,
  };
}

function sheets(report: ImpactReport): SheetBuilder[] {
  const impact = new SheetBuilder(
    'impact',
    [
      ...KEY_COLUMNS,
      text('declared_unit', 13),
      col('before', 14, VALUE_FORMAT),
      col('after', 14, VALUE_FORMAT),
      col('change', 14, VALUE_FORMAT),
      col('change_pct', 11, PCT_FORMAT),
      text('blocked_before', 40),
      text('blocked_after', 40),
      text('rows', 30),
    ],
    0,
  );
  const rowsOf = new Map(report.instances.map((i) => [i.instance_id, i.rows.join(', ')]));
  for (const r of report.rows)
    impact.add({
      ...keyCells(r),
      plant_code: r.plant_code,
      declared_unit: r.declared_unit,
      before: r.before,
      after: r.after,
      change: r.change,
      change_pct: r.change_pct,
      blocked_before: r.blocked_before,
      blocked_after: r.blocked_after,
      rows: rowsOf.get(r.instance_id) ?? null,
    });
  const plantOf = new Map(report.instances.map((i) => [i.instance_id, i.plant_code]));
  const sources = new SheetBuilder(
    'impact-sources',
    [
      ...KEY_COLUMNS,
      text('line', 18),
      text('component_type', 18),
      text('component_external_id', 20),
      text('component_name', 30),
      text('supplier', 30),
      col('before', 14, VALUE_FORMAT),
      col('after', 14, VALUE_FORMAT),
      col('change', 14, VALUE_FORMAT),
      text('rows', 30),
      text('component_ref', 38),
    ],
    0,
  );
  for (const s of report.sources)
    sources.add({
      ...keyCells(s),
      plant_code: plantOf.get(s.instance_id) ?? null,
      line: s.line,
      component_type: s.component_type,
      component_external_id: s.code,
      component_name: s.name,
      supplier: s.supplier,
      before: s.before,
      after: s.after,
      change: s.change,
      rows: s.rows.join(', ') || null,
      component_ref: s.ref,
    });
  return [impact, sources];
}

/** Write the impact workbook to `outPath`. */
export function writeImpactWorkbook(report: ImpactReport, outPath: string): Promise<ImpactWorkbookStats> {
  return writeAtomic(outPath, async (tmp) => {
    const file = createWriteStream(tmp);
    const closed = new Promise<void>((resolve, reject) => {
      file.once('close', resolve);
      file.once('error', reject);
    });
    const created = new Date(report.generated_at);
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: file,
      useStyles: true,
      useSharedStrings: true,
    });
    wb.creator = 'Supply Loader';
    wb.created = created;
    wb.modified = created;
    const built = sheets(report);
    const notes = [...report.notes];
    let cut = false;
    for (const b of built) cut = writeSheet(wb, b) || cut;
    if (cut) notes.push('Some texts were longer than an Excel cell holds (32,767 characters) and were cut.');
    await wb.commit();
    await closed;
    return { rows: { impact: built[0].rows.length, sources: built[1].rows.length }, notes };
  });
}
