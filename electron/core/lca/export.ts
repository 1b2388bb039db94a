/**
 * The LCA results workbook (exceljs), sheets in this order:
 *  - `results` (long): one row per instance × year × indicator × module, over the indicators and modules
 *    the service returned for any instance in the export. A value the element does not declare is an empty
 *    cell, never 0. Values are numbers with a number format. Unknown fields of a results element, and of a
 *    value entry (`values[].…`), are extra columns flattened by path. An element without a `values` array
 *    (the shape changed) gives one row with its fields flattened instead of failing.
 *  - `gwp` (wide): one row per instance × year; a column per module of GWP-total, then the other indicators;
 *    colour scales (white → red on GWP-total, green → yellow → red on the others) so the big emitters stand
 *    out. (Colour scales rather than data bars: exceljs's streaming writer cannot write the Excel 2010
 *    extension part data bars need, and a half-written data bar is a file Excel may want to repair.)
 *  - `blockers`: instance, year, blocker type, kind, code, the service's message, what the user should do.
 *  - `jobs`: one row per instance: outcome, job status, err_code, the catalog's explanation, job times where
 *    given; unknown job fields as `job.…` columns, unknown answer fields as `response.…`.
 *  - `breakdown` (only when asked for and the key may read it): per-source impacts.
 *  - `about`: when, from where (base URL, key masked), which selection, counts, and notes.
 * Server strings are always written as string cells, never formulas. Times are ISO 8601 UTC text (no time
 * zone shifts). The file is written with exceljs's streaming writer (fast, bounded memory) to a temporary name
 * and renamed, so a crash never leaves half a file.
 */
import { createWriteStream } from 'node:fs';
import { columnLetter } from '../workbook/cell-ref.js';
import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type CellValue, type FlatRecord, fitCell, unknownFields } from './flatten.js';
import { declaredUnitLabel, hotspotRows, perDeclaredUnit, trendRows } from './analysis.js';
import { GWP_TOTAL, INDICATOR_INFO, INDICATOR_SOURCE, orderIndicators, orderModules } from './indicators.js';
import {
  type InstanceLca,
  JOB_FIELDS,
  type LcaReport,
  type ResultYear,
  blockerAction,
  blockerNeedsAction,
  readResults,
  serviceCurrentYear,
} from './model.js';
import { writeAtomic } from '../fs/atomic.js';

export const LCA_SHEETS = ['results', 'gwp', 'hotspots', 'trend', 'blockers', 'jobs', 'breakdown', 'about'] as const;

export interface LcaExportOptions {
  /** Add the `breakdown` sheet (per-source impacts) when the service returned it. Default false. */
  breakdown?: boolean;
  /** Most extra (unknown-field) columns per sheet; the rest go to one `more_fields` JSON column. Default 200. */
  maxExtraColumns?: number;
}

export interface LcaExportStats {
  rows: {
    results: number;
    gwp: number;
    hotspots: number;
    trend: number;
    blockers: number;
    jobs: number;
    breakdown: number;
  };
  /** Extra columns added for fields this version does not know, per sheet. */
  extraColumns: Record<string, string[]>;
  /** Things the user should know about the export (shape changes, cut cells, breakdown left out). */
  notes: string[];
}

const VALUE_FORMAT = '0.000E+00';
const QUANTITY_FORMAT = '#,##0.###';
const SHARE_FORMAT = '0.00%';
const PCT_FORMAT = '0.00';
const TEXT = '@';
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };

interface ColumnDef {
  key: string;
  header: string;
  width: number;
  numFmt?: string;
}

/** A column headed by its key. */
function col(key: string, width: number, numFmt?: string): ColumnDef {
  return numFmt === undefined ? { key, header: key, width } : { key, header: key, width, numFmt };
}
const text = (key: string, width: number): ColumnDef => col(key, width, TEXT);

/** Instance columns every data sheet starts with. */
const INSTANCE_COLUMNS: ColumnDef[] = [
  text('product_article', 16),
  text('product_name', 30),
  text('instance_external_id', 20),
  text('plant_code', 12),
];
const YEAR_COLUMN = col('year', 8, '0');
/** A result year: the results and gwp sheets follow the instance columns with these. */
const RESULT_YEAR_COLUMNS: ColumnDef[] = [YEAR_COLUMN, col('partial_year', 12), text('status', 11)];
/** One value: the results and breakdown sheets end with these. */
const VALUE_COLUMNS: ColumnDef[] = [
  text('indicator', 16),
  text('module', 9),
  col('value', 14, VALUE_FORMAT),
  text('unit', 22),
];
/** Per declared unit: the results sheet follows VALUE_COLUMNS with these (full precision in the cell). */
const PER_UNIT_COLUMNS: ColumnDef[] = [
  col('production_quantity', 14, QUANTITY_FORMAT),
  text('declared_unit', 13),
  col('value_per_declared_unit', 16, VALUE_FORMAT),
  text('per_declared_unit_note', 40),
];

function perUnitCells(i: InstanceLca, y: ResultYear, value: number | null): Record<string, CellValue> {
  const pu = perDeclaredUnit(value, y.production_quantity);
  return {
    production_quantity: y.production_quantity,
    declared_unit: declaredUnitLabel(i.instance.product_unit),
    value_per_declared_unit: pu.value,
    per_declared_unit_note: pu.note,
  };
}

function instanceCells(i: InstanceLca): Record<string, CellValue> {
  return {
    product_article: i.instance.product_article,
    product_name: i.instance.product_name,
    instance_external_id: i.instance.external_id ?? i.instance.id,
    plant_code: i.instance.plant_code,
  };
}

/** Cells of INSTANCE_COLUMNS and RESULT_YEAR_COLUMNS. */
function resultYearCells(i: InstanceLca, y: ResultYear): Record<string, CellValue> {
  return { ...instanceCells(i), year: y.year, partial_year: yesNo(y.partial_year), status: y.status };
}

/** Extra columns of one sheet, in first-seen order, capped. */
class ExtraColumns {
  readonly keys: string[] = [];
  private readonly seen = new Set<string>();
  overflow = false;
  constructor(
    private readonly reserved: ReadonlySet<string>,
    private readonly max: number,
  ) {}
  /** The record with keys mapped to columns (reserved names prefixed `extra:`), overflow packed. */
  place(rec: FlatRecord): Record<string, CellValue> {
    const out: Record<string, CellValue> = {};
    const more: Record<string, CellValue> = {};
    for (const [k0, v] of Object.entries(rec)) {
      const k = this.reserved.has(k0) ? `extra:${k0}` : k0;
      if (!this.seen.has(k)) {
        if (this.keys.length >= this.max) {
          more[k] = v;
          this.overflow = true;
          continue;
        }
        this.seen.add(k);
        this.keys.push(k);
      }
      out[k] = v;
    }
    if (Object.keys(more).length) out.more_fields = JSON.stringify(more);
    return out;
  }
}

class SheetBuilder {
  readonly rows: Record<string, CellValue>[] = [];
  readonly extras: ExtraColumns;
  constructor(
    readonly name: string,
    readonly columns: ColumnDef[],
    maxExtra: number,
  ) {
    this.extras = new ExtraColumns(new Set(columns.map((c) => c.key).concat('more_fields')), maxExtra);
  }
  add(fixed: Record<string, CellValue>, extra: FlatRecord = {}): void {
    this.rows.push({ ...fixed, ...this.extras.place(extra) });
  }
}

type StreamWorkbook = ExcelJS.stream.xlsx.WorkbookWriter;
type StreamSheet = ReturnType<StreamWorkbook['addWorksheet']>;

/** Columns of a built sheet: its fixed ones, then the extra (unknown-field) ones. */
function sheetColumns(b: SheetBuilder): ColumnDef[] {
  const extraDefs = b.extras.keys.map((k) => col(k, Math.min(40, Math.max(12, k.length + 2))));
  if (b.extras.overflow) extraDefs.push(text('more_fields', 40));
  return [...b.columns, ...extraDefs];
}

/** Write a built sheet (streaming). Returns whether a cell had to be cut. */
function emitSheet(wb: StreamWorkbook, b: SheetBuilder, decorate?: (ws: StreamSheet) => void): boolean {
  const defs = sheetColumns(b);
  const ws = wb.addWorksheet(b.name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = defs.map((d) => ({ key: d.key, width: d.width, style: d.numFmt ? { numFmt: d.numFmt } : {} }));
  if (defs.length > 0) ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: defs.length } };
  decorate?.(ws);
  const header = ws.getRow(1);
  defs.forEach((d, i) => {
    const c = header.getCell(i + 1);
    c.value = d.header;
    c.font = { bold: true };
    c.fill = HEADER_FILL;
  });
  header.commit();
  let cut = false;
  b.rows.forEach((r, ri) => {
    const row = ws.getRow(ri + 2);
    defs.forEach((d, ci) => {
      const v0 = r[d.key];
      if (v0 === null || v0 === undefined || v0 === '') return; // empty cell: not declared / not given
      const { value, truncated } = fitCell(v0);
      cut ||= truncated;
      // Strings stay string cells (a server text starting with = + - @ never becomes a formula).
      row.getCell(ci + 1).value = value;
    });
    row.commit();
  });
  ws.commit();
  return cut;
}


const yesNo = (b: boolean | null): CellValue => (b === null ? null : b ? 'yes' : 'no');

interface BuiltSheets {
  sheets: SheetBuilder[];
  /** Keys of the gwp sheet's indicator columns (for the colour scales). */
  wideKeys: string[];
  stats: LcaExportStats;
}

/** Lay out every sheet as rows (plain data; nothing written yet). */
function buildSheets(report: LcaReport, opts: LcaExportOptions): BuiltSheets {
  const maxExtra = opts.maxExtraColumns ?? 200;
  const notes: string[] = [];
  const parsed = report.instances.map((i) => ({ i, years: readResults(i.results) }));

  // Indicators and modules over the whole export; the unit of each indicator (first seen).
  const indicatorsSeen: string[] = [];
  const modulesSeen: string[] = [];
  const unitOf = new Map<string, string>();
  let shapeChanged = 0;
  let breakdownPresent = false;
  for (const { years } of parsed) {
    for (const y of years) {
      if (y.values === null) shapeChanged++;
      if (y.breakdown && y.breakdown.length > 0) breakdownPresent = true;
      for (const v of y.values ?? []) {
        if (v.indicator === null) continue;
        indicatorsSeen.push(v.indicator);
        if (v.module !== null) modulesSeen.push(v.module);
        if (v.unit !== null && !unitOf.has(v.indicator)) unitOf.set(v.indicator, v.unit);
      }
    }
  }
  const indicators = orderIndicators(indicatorsSeen);
  const modules = orderModules(modulesSeen);
  /** (indicator, module) pairs any instance declared, in display order. */
  const declared = new Set<string>();
  for (const { years } of parsed)
    for (const y of years)
      for (const v of y.values ?? []) if (v.indicator !== null) declared.add(`${v.indicator}\u0000${v.module ?? ''}`);
  const pairs: [string, string | null][] = [];
  for (const ind of indicators) {
    for (const m of modules) if (declared.has(`${ind}\u0000${m}`)) pairs.push([ind, m]);
    if (declared.has(`${ind}\u0000`)) pairs.push([ind, null]);
  }

  // ---- results (long)
  const results = new SheetBuilder(
    'results',
    [...INSTANCE_COLUMNS, ...RESULT_YEAR_COLUMNS, ...VALUE_COLUMNS, ...PER_UNIT_COLUMNS],
    maxExtra,
  );
  for (const { i, years } of parsed) {
    for (const y of years) {
      const yearCells = resultYearCells(i, y);
      if (y.values === null) {
        // Changed shape: the element's fields, flattened, on one row.
        results.add({ ...yearCells, indicator: null, module: null, value: null, unit: null }, y.extra);
        continue;
      }
      const used = new Set<number>();
      for (const [ind, mod] of pairs) {
        const matches = y.values.map((v, k) => ({ v, k })).filter(({ v }) => v.indicator === ind && v.module === mod);
        if (matches.length === 0) {
          results.add(
            { ...yearCells, indicator: ind, module: mod, value: null, unit: unitOf.get(ind) ?? null },
            y.extra,
          );
        }
        for (const { v, k } of matches) {
          used.add(k);
          results.add(
            {
              ...yearCells,
              indicator: ind,
              module: mod,
              value: v.value,
              unit: v.unit ?? unitOf.get(ind) ?? null,
              ...perUnitCells(i, y, v.value),
            },
            { ...y.extra, ...v.extra },
          );
        }
      }
      // Value entries without an indicator: kept, flattened.
      y.values.forEach((v, k) => {
        if (!used.has(k))
          results.add(
            {
              ...yearCells,
              indicator: v.indicator,
              module: v.module,
              value: v.value,
              unit: v.unit,
              ...perUnitCells(i, y, v.value),
            },
            { ...y.extra, ...v.extra },
          );
      });
      // An element with no values and no pairs at all (nothing declared anywhere): still one row per year.
      if (pairs.length === 0 && y.values.length === 0)
        results.add({ ...yearCells, indicator: null, module: null, value: null, unit: null }, y.extra);
    }
  }
  if (shapeChanged > 0) {
    notes.push(
      `${shapeChanged} result element(s) came without a "values" list (the service's answer changed shape): their fields are exported as flattened columns on the results sheet.`,
    );
  }

  // ---- gwp (wide)
  const wideIndicators = [GWP_TOTAL, ...indicators.filter((x) => x !== GWP_TOTAL)].filter((x) =>
    indicators.includes(x),
  );
  const wideCols: { key: string; indicator: string; module: string | null }[] = [];
  for (const ind of wideIndicators)
    for (const [pi, pm] of pairs)
      if (pi === ind) wideCols.push({ key: `${ind} ${pm ?? ''}`.trim(), indicator: ind, module: pm });
  const gwp = new SheetBuilder(
    'gwp',
    [
      ...INSTANCE_COLUMNS,
      ...RESULT_YEAR_COLUMNS,
      col('production_quantity', 14, QUANTITY_FORMAT),
      ...wideCols.map((c) => {
        const unit = unitOf.get(c.indicator);
        return { key: c.key, header: unit ? `${c.key} [${unit}]` : c.key, width: 16, numFmt: VALUE_FORMAT };
      }),
    ],
    maxExtra,
  );
  let duplicates = 0;
  for (const { i, years } of parsed) {
    for (const y of years) {
      const cells: Record<string, CellValue> = {
        ...resultYearCells(i, y),
        production_quantity: y.production_quantity,
      };
      for (const c of wideCols) {
        const m = (y.values ?? []).filter(
          (v) => v.indicator === c.indicator && v.module === c.module && v.value !== null,
        );
        cells[c.key] = m.length > 0 ? m[0].value : null;
        if (m.length > 1) duplicates++;
      }
      gwp.add(cells);
    }
  }

  if (duplicates > 0) {
    notes.push(
      `${duplicates} time(s) a year declared the same indicator and module twice: the gwp sheet shows the first value, the results sheet every one.`,
    );
  }

  // ---- hotspots (the per-source breakdown with names; written whenever it is readable)
  const hotspots = new SheetBuilder(
    'hotspots',
    [
      ...INSTANCE_COLUMNS,
      ...RESULT_YEAR_COLUMNS.slice(0, 2),
      text('component_type', 18),
      text('component_external_id', 20),
      text('component_name', 30),
      text('supplier_company', 26),
      text('supplier_plant', 26),
      col('mass_kg', 12, QUANTITY_FORMAT),
      ...VALUE_COLUMNS,
      text('declared_unit', 13),
      col('value_per_declared_unit', 16, VALUE_FORMAT),
      col('share_of_year_total', 12, SHARE_FORMAT),
      col('year_total', 14, VALUE_FORMAT),
      text('component_ref', 38),
    ],
    maxExtra,
  );
  const ctx = report.breakdown_context;
  const byId = new Map(report.instances.map((i) => [i.instance.id, i]));
  if (ctx?.readable) {
    for (const r of hotspotRows(report)) {
      const i = byId.get(r.instance_id)!;
      hotspots.add({
        ...instanceCells(i),
        year: r.year,
        partial_year: yesNo(r.partial),
        component_type: r.component.component_type,
        component_external_id: r.component.external_id,
        component_name: r.component.name,
        supplier_company: r.component.supplier_company,
        supplier_plant: r.component.supplier_plant,
        mass_kg: r.component.mass_kg,
        indicator: r.indicator,
        module: r.module,
        value: r.value,
        unit: r.unit,
        declared_unit: declaredUnitLabel(i.instance.product_unit),
        value_per_declared_unit: r.per_declared_unit.value,
        share_of_year_total: r.share,
        year_total: r.year_total,
        component_ref: r.component.ref,
      });
    }
    for (const p of ctx.problems) notes.push(`Hotspots: ${p}`);
  } else if (ctx?.reason) {
    notes.push(`No hotspots sheet: ${ctx.reason}`);
  }

  // ---- trend (change against the previous computed year)
  const trend = new SheetBuilder(
    'trend',
    [
      ...INSTANCE_COLUMNS,
      text('indicator', 16),
      text('modules', 9),
      text('unit', 22),
      YEAR_COLUMN,
      col('partial_year', 12),
      col('value', 14, VALUE_FORMAT),
      text('declared_unit', 13),
      col('value_per_declared_unit', 16, VALUE_FORMAT),
      col('previous_year', 10, '0'),
      col('previous_partial_year', 12),
      col('change', 14, VALUE_FORMAT),
      col('change_pct', 11, PCT_FORMAT),
      col('change_per_declared_unit', 16, VALUE_FORMAT),
      col('change_per_declared_unit_pct', 14, PCT_FORMAT),
    ],
    maxExtra,
  );
  for (const r of trendRows(report)) {
    const i = byId.get(r.instance_id)!;
    trend.add({
      ...instanceCells(i),
      indicator: r.indicator,
      modules: r.modules,
      unit: r.unit,
      year: r.year,
      partial_year: yesNo(r.partial),
      value: r.value,
      declared_unit: declaredUnitLabel(i.instance.product_unit),
      value_per_declared_unit: r.per_declared_unit.value,
      previous_year: r.previous_year,
      previous_partial_year: yesNo(r.previous_partial),
      change: r.change_abs,
      change_pct: r.change_pct,
      change_per_declared_unit: r.change_per_unit_abs,
      change_per_declared_unit_pct: r.change_per_unit_pct,
    });
  }

  // ---- blockers
  const blockers = new SheetBuilder(
    'blockers',
    [
      ...INSTANCE_COLUMNS,
      YEAR_COLUMN,
      text('type', 14),
      text('kind', 16),
      text('code', 30),
      text('err_code', 30),
      col('needs_action', 13),
      text('what_to_do', 70),
      text('message', 70),
    ],
    maxExtra,
  );
  for (const { i, years } of parsed) {
    const current = serviceCurrentYear(years, i.job);
    for (const y of years) {
      for (const b of y.blockers) {
        blockers.add(
          {
            ...instanceCells(i),
            year: y.year,
            type: b.type,
            kind: b.kind,
            code: b.code ?? b.err_code,
            err_code: b.err_code,
            needs_action: yesNo(blockerNeedsAction(y.year, current)),
            what_to_do: blockerAction(b, y.year, current),
            message: b.msg,
          },
          b.extra,
        );
      }
    }
  }

  // ---- jobs
  const jobs = new SheetBuilder(
    'jobs',
    [
      ...INSTANCE_COLUMNS,
      text('instance_id', 38),
      text('outcome', 14),
      text('job_status', 12),
      text('err_code', 30),
      text('explanation', 60),
      text('action', 50),
      text('message', 50),
      col('recomputed', 11),
      col('waited_for_running_job', 14),
      col('years_computed', 10, '0'),
      col('years_blocked', 10, '0'),
      text('job_id', 38),
      text('queued_at', 25),
      text('started_at', 25),
      text('finished_at', 25),
    ],
    maxExtra,
  );
  const jobText = (job: Record<string, unknown> | null, f: string): CellValue => {
    const v = job?.[f];
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  };
  for (const { i, years } of parsed) {
    const jobExtra: FlatRecord = i.job ? unknownFields(i.job, JOB_FIELDS, 'job.') : {};
    jobs.add(
      {
        ...instanceCells(i),
        instance_id: i.instance.id,
        outcome: i.outcome,
        job_status: i.job_status,
        err_code: i.err_code,
        explanation: i.explanation,
        action: i.action,
        message: i.msg,
        recomputed: yesNo(i.recomputed),
        waited_for_running_job: yesNo(i.waited_for_running_job),
        years_computed: i.results.length ? years.filter((y) => y.status === 'computed').length : null,
        years_blocked: i.results.length ? years.filter((y) => y.status === 'blocked').length : null,
        job_id: jobText(i.job, 'id'),
        queued_at: jobText(i.job, 'queued_at'),
        started_at: jobText(i.job, 'started_at'),
        finished_at: jobText(i.job, 'finished_at'),
      },
      { ...jobExtra, ...i.response_extra },
    );
  }

  // ---- breakdown (optional)
  const breakdown = new SheetBuilder(
    'breakdown',
    [...INSTANCE_COLUMNS, YEAR_COLUMN, text('component_type', 18), text('ref', 38), ...VALUE_COLUMNS],
    maxExtra,
  );
  if (opts.breakdown) {
    for (const { i, years } of parsed) {
      for (const y of years) {
        for (const e of y.breakdown ?? []) {
          breakdown.add(
            {
              ...instanceCells(i),
              year: y.year,
              component_type: e.component_type,
              ref: e.ref,
              indicator: e.indicator,
              module: e.module,
              value: e.value,
              unit: e.indicator ? (unitOf.get(e.indicator) ?? null) : null,
            },
            e.extra,
          );
        }
      }
    }
  } else if (breakdownPresent && !ctx?.readable) {
    notes.push(
      'The service returned a per-source breakdown; it is not in this workbook (ask for it with the breakdown option, CLI --breakdown).',
    );
  }

  const sheets = [
    results,
    gwp,
    ...(ctx?.readable ? [hotspots] : []),
    trend,
    blockers,
    jobs,
    ...(opts.breakdown ? [breakdown] : []),
  ];
  for (const b of sheets) {
    if (b.extras.overflow)
      notes.push(
        `The ${b.name} sheet met more unknown fields than ${maxExtra} columns: the rest are in its more_fields column as JSON.`,
      );
  }
  return {
    sheets,
    wideKeys: wideCols.map((c) => c.key),
    stats: {
      rows: {
        results: results.rows.length,
        gwp: gwp.rows.length,
        hotspots: hotspots.rows.length,
        trend: trend.rows.length,
        blockers: blockers.rows.length,
        jobs: jobs.rows.length,
        breakdown: opts.breakdown ? breakdown.rows.length : 0,
      },
      extraColumns: Object.fromEntries(
        [results, gwp, hotspots, trend, blockers, jobs, breakdown].map((b) => [b.name, [...b.extras.keys]]),
      ),
      notes,
    },
  };
}

/** Stream the workbook to `out`; resolves when everything is written. */
async function streamWorkbook(report: LcaReport, opts: LcaExportOptions, out: Writable): Promise<LcaExportStats> {
  const built = buildSheets(report, opts);
  const created = new Date(report.generated_at);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: true,
    created,
    modified: created,
    creator: 'Supply Loader',
  } as ConstructorParameters<typeof ExcelJS.stream.xlsx.WorkbookWriter>[0] & {
    created: Date;
    modified: Date;
    creator: string;
  });
  let cut = false;
  for (const b of built.sheets) {
    cut = emitSheet(wb, b, b.name === 'gwp' ? (ws) => addWideFormatting(ws, b, built.wideKeys) : undefined) || cut;
  }
  if (cut) built.stats.notes.push('Some texts were longer than an Excel cell holds (32,767 characters) and were cut.');
  addAboutSheet(wb, report, built.stats.notes);
  await wb.commit();
  return built.stats;
}

/** Colour scales: white → red on the GWP-total columns, green → yellow → red on every other indicator. */
function addWideFormatting(ws: StreamSheet, b: SheetBuilder, valueKeys: string[]): void {
  if (b.rows.length === 0) return;
  const last = b.rows.length + 1;
  let priority = 1;
  for (const key of valueKeys) {
    const col = b.columns.findIndex((c) => c.key === key) + 1;
    if (col <= 0) continue;
    const ref = `${columnLetter(col)}2:${columnLetter(col)}${last}`;
    const gwpTotal = key.startsWith(`${GWP_TOTAL} `) || key === GWP_TOTAL;
    const rule: ExcelJS.ColorScaleRuleType = gwpTotal
      ? {
          type: 'colorScale',
          priority: priority++,
          cfvo: [{ type: 'min' }, { type: 'max' }],
          color: [{ argb: 'FFFFFFFF' }, { argb: 'FFE0533D' }],
        }
      : {
          type: 'colorScale',
          priority: priority++,
          cfvo: [{ type: 'min' }, { type: 'percentile', value: 50 }, { type: 'max' }],
          color: [{ argb: 'FF63BE7B' }, { argb: 'FFFFEB84' }, { argb: 'FFF8696B' }],
        };
    ws.addConditionalFormatting({ ref, rules: [rule] });
  }
}

function addAboutSheet(wb: StreamWorkbook, report: LcaReport, notes: string[]): void {
  const ws = wb.addWorksheet('about');
  ws.columns = [
    { key: 'k', width: 26 },
    { key: 'v', width: 90, style: { numFmt: TEXT } },
  ];
  const s = report.summary;
  const lines: [string, CellValue][] = [
    ['generated_at', report.generated_at],
    ['base_url', report.base_url],
    ['api_key', report.masked_key],
    ['selection', report.selection],
    ['recompute', report.recompute ? 'yes' : 'no'],
    ['instances', s.total],
    ['completed', s.completed],
    ['idle (never computed)', s.idle],
    ['failed', s.failed],
    ['errors', s.error],
    ['unknown job status', s.unknown_status],
    ['cancelled', s.cancelled],
    ['skipped', s.skipped],
    [
      'stopped early',
      report.aborted
        ? `${report.aborted.message}${report.aborted.err_code ? ` (${report.aborted.err_code})` : ''}`
        : 'no',
    ],
    ['duration_s', Math.round(report.duration_ms / 100) / 10],
  ];
  notes.forEach((n, k) => lines.push([`note ${k + 1}`, n]));
  lines.push(['empty value cells', 'A value the service did not declare is an empty cell, never 0.']);
  lines.push([
    'values',
    "Every impact value is as computed by the service (API v2 lca-results). Supply Loader computes nothing: it only divides by the year's production quantity (value_per_declared_unit, in the product's unit) and, on the trend sheet, sums A1-A3 + A4 where the modules column says A1-A4. Modules are never mixed otherwise.",
  ]);
  lines.push([
    'per declared unit',
    "value ÷ the production quantity of that year, in the product's unit (per t, per m³ …). Where the service gives no quantity, per_declared_unit_note says so and the cell stays empty.",
  ]);
  lines.push([
    'partial years',
    'partial_year = yes marks the current calendar year: its result covers only the part of the year entered so far.',
  ]);
  lines.push(['indicators', INDICATOR_SOURCE]);
  for (const ind of INDICATOR_INFO) {
    lines.push([
      `indicator ${ind.code}`,
      `${ind.name_en} [${ind.unit}]: ${ind.definition_en} — ${ind.name_de} [${ind.unit_de}]: ${ind.definition_de}`,
    ]);
  }
  lines.forEach(([k, v], r) => {
    const row = ws.getRow(r + 1);
    row.getCell(1).value = k;
    row.getCell(1).font = { bold: true };
    if (v !== null) row.getCell(2).value = fitCell(v).value;
    row.commit();
  });
  ws.commit();
}

/**
 * Write the workbook to `outPath` (via a temporary file in the same folder and a rename, so a crash never
 * leaves half a workbook under the final name).
 */
export async function writeLcaWorkbook(
  report: LcaReport,
  outPath: string,
  opts: LcaExportOptions = {},
): Promise<LcaExportStats> {
  return writeAtomic(outPath, async (tmp) => {
    const file = createWriteStream(tmp);
    const closed = new Promise<void>((resolve, reject) => {
      file.once('close', resolve);
      file.once('error', reject);
    });
    const stats = await streamWorkbook(report, opts, file);
    await closed;
    return stats;
  });
}

/** The workbook as bytes (for the UI's save dialog, or to attach somewhere). */
export async function lcaWorkbookBuffer(
  report: LcaReport,
  opts: LcaExportOptions = {},
): Promise<{ buffer: Buffer; stats: LcaExportStats }> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    sink.once('end', resolve);
    sink.once('error', reject);
  });
  const stats = await streamWorkbook(report, opts, sink);
  await ended;
  return { buffer: Buffer.concat(chunks), stats };
}

/** The years of an instance, read tolerantly (for callers that show results without exporting). */
export function instanceYears(i: InstanceLca): ResultYear[] {
  return readResults(i.results);
}
