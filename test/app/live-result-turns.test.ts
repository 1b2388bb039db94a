/**
 * The results and failed-rows workbooks made beside a job (liveResultFiles) let the event loop turn every few
 * rows, so that the job's answers arriving meanwhile are read at once: rows written (exceljs's row commits) and
 * rows read (the reader's rows) are counted between two turns of a setImmediate ticker. No time is measured.
 */
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveResultFiles } from '../../core/app/import-results.js';
import { EntryIndex } from '../../core/jobs/entry-index.js';
import { writeEmptyFailedRowsWorkbook } from '../../core/jobs/failed-rows-workbook.js';
import { LIVE_ROWS_PER_TURN, writeResultsWorkbook } from '../../core/jobs/results-workbook.js';
import { liveRowMarks } from '../../core/jobs/row-marks.js';
import { sourceSheets } from '../../core/jobs/source-sheets.js';
import { Slicer } from '../../core/throttle.js';
import type { JobResultSummary, PlanEntry, PlanHeader } from '../../core/jobs/types.js';
import { FORMAT_ROWS_PER_TURN, INSTRUCTION_ROWS_PER_TURN } from '../../core/workbook/xlsx-layout.js';
import { writeTestWorkbook } from '../jobs/helpers.js';

const ROWS = 300;
let dir: string;
let input: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-live-turns-'));
  input = await writeTestWorkbook(path.join(dir, 'input.xlsx'), {
    'supplier-companies': Array.from({ length: ROWS }, (_, i) => ({
      external_id: `TURN-SC-${i}`,
      name: `Supplier company number ${i} of the turns test`,
      country: 'DE',
    })),
  });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const plan = {
  format: 'supply-loader/plan@1',
  createdAt: '2026-01-01T00:00:00.000Z',
  file: 'input.xlsx',
  sheetNames: { 'supplier-companies': 'supplier-companies' },
  sheetColumns: {},
  baseUrl: 'http://127.0.0.1:1',
  manufacturerId: 'm',
  maskedKey: 'svc-k-****',
  options: { createOnly: false },
} as unknown as PlanHeader;

const result = {
  jobId: '20260101-000000-aaaaaa',
  status: 'completed',
  baseUrl: 'http://127.0.0.1:1',
  maskedKey: 'svc-k-****',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
  counts: { created: ROWS },
  bySheet: { 'supplier-companies': { created: ROWS } },
  entitlementLimits: [],
  requests: ROWS,
} as unknown as JobResultSummary;

/** Every row of the input created: the index with each entry's outcome recorded. */
function createdIndex(): EntryIndex {
  const entries = Array.from(
    { length: ROWS },
    (_, i) =>
      ({
        key: `supplier_company:TURN-SC-${i}`,
        kind: 'supplier_company',
        sheet: 'supplier-companies',
        row: i + 2,
        rows: [{ sheet: 'supplier-companies', row: i + 2 }],
        level: 0,
        action: 'create',
        externalId: `TURN-SC-${i}`,
      }) as unknown as PlanEntry,
  );
  const index = EntryIndex.fromEntries(entries);
  entries.forEach((e, i) => index.setOutcome(i, { key: e.key, outcome: 'created', id: `id-${i}` }));
  return index;
}

/** exceljs's prototypes of a row and of a range (a sheet's dimensions, which its streaming reader grows per row). */
const sheet = new ExcelJS.Workbook().addWorksheet('x');
const rowProto = Object.getPrototypeOf(sheet.getRow(1)) as { commit(): void };
const rangeProto = Object.getPrototypeOf(sheet.dimensions) as { expandRow(row: unknown): void };

interface Counted {
  /** rows committed by the writers, all told */
  written: number;
  /** rows read by exceljs's streaming reader, all told */
  read: number;
  /** the most rows written between two turns of the event loop */
  writtenPerTurn: number;
  /** the most rows read between two turns */
  readPerTurn: number;
  /** the rows written between two turns, for each turn in which some were */
  writtenInTurns: number[];
}

/** `work` run with a setImmediate ticker counting the rows written and read between two of its turns. */
async function countTurns(work: () => Promise<unknown>): Promise<Counted> {
  const c: Counted = { written: 0, read: 0, writtenPerTurn: 0, readPerTurn: 0, writtenInTurns: [] };
  let written = 0;
  let read = 0;
  const { commit } = rowProto;
  const { expandRow } = rangeProto;
  rowProto.commit = function (this: unknown) {
    c.written++;
    written++;
    return commit.call(this);
  };
  rangeProto.expandRow = function (this: unknown, row: unknown) {
    c.read++;
    read++;
    return expandRow.call(this, row);
  };
  const turned = () => {
    c.writtenPerTurn = Math.max(c.writtenPerTurn, written);
    c.readPerTurn = Math.max(c.readPerTurn, read);
    if (written) c.writtenInTurns.push(written);
    written = read = 0;
  };
  let on = true;
  const tick = () => {
    turned();
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await work();
  } finally {
    on = false;
    turned();
    rowProto.commit = commit;
    rangeProto.expandRow = expandRow;
  }
  return c;
}

describe('workbooks made beside a job let the event loop turn', () => {
  it('liveResultFiles: both workbooks, a few rows at a time, from the call that starts them to the end', async () => {
    const live = liveResultFiles(() => {}, input, plan, {
      report: path.join(dir, 'results.xlsx'),
      failed: path.join(dir, 'failed.xlsx'),
    })!;
    const index = createdIndex();
    let written: unknown;
    // The ticker runs from before the writers start: what they do within onWritesUnderway counts too.
    const c = await countTurns(async () => {
      live.onIndex(index);
      live.onWritesUnderway();
      for (let i = 0; i < ROWS; i++) live.onSettled(i);
      written = await live.finish(result);
    });
    expect(written).toEqual({ report: path.join(dir, 'results.xlsx'), failed: path.join(dir, 'failed.xlsx') });
    // The results workbook's rows and the empty template's (Instructions, header, lists), as before.
    expect(c.written).toBeGreaterThan(ROWS + 250);
    expect(c.read).toBeGreaterThanOrEqual(ROWS);
    // One writer's slice per turn: the two writers never put theirs into the same turn.
    expect(c.writtenPerTurn).toBeLessThanOrEqual(Math.max(LIVE_ROWS_PER_TURN, FORMAT_ROWS_PER_TURN));
  });

  it('the results workbook: its input read and its rows copied a few at a time', async () => {
    const marks = liveRowMarks(createdIndex());
    marks.finish();
    const c = await countTurns(() =>
      writeResultsWorkbook(input, plan, result, path.join(dir, 'results-alone.xlsx'), marks),
    );
    expect(c.written).toBeGreaterThan(ROWS);
    expect(c.read).toBe(ROWS + 1);
    expect(c.writtenPerTurn).toBeLessThanOrEqual(LIVE_ROWS_PER_TURN);
    // The input is handed to the reader 4 KB at a time: a few dozen of these rows.
    expect(c.readPerTurn).toBeLessThanOrEqual(60);
  });

  it('the empty failed-rows workbook: the template a few rows at a time', async () => {
    const file = path.join(dir, 'empty-failed.xlsx');
    const c = await countTurns(() => writeEmptyFailedRowsWorkbook(file));
    // Its strings inline, as in a failed-rows workbook with rows: no table of them rendered in one go at the end.
    expect(fs.readFileSync(file).includes('xl/sharedStrings.xml')).toBe(false);
    expect(c.written).toBeGreaterThan(250);
    expect(c.writtenPerTurn).toBeLessThanOrEqual(FORMAT_ROWS_PER_TURN);
    // The Instructions sheet first (25 rows of long texts, while the code is cold): fewer rows at a time.
    expect(c.writtenInTurns.slice(0, 3).every((n) => n <= INSTRUCTION_ROWS_PER_TURN)).toBe(true);
  });

  it('sourceSheets with a slicer that turns at every slice: the rows come a slice of the input at a time (all of them)', async () => {
    const readAll = async (slicer?: Slicer) => {
      let rows = 0;
      const c = await countTurns(async () => {
        for await (const s of sourceSheets(input, () => true, slicer)) for await (const _ of s.rows()) rows++;
      });
      return { rows, perTurn: c.readPerTurn };
    };
    const paced = await readAll(new Slicer({ sliceMs: 0 }));
    expect(paced.rows).toBe(ROWS + 1);
    expect(paced.perTurn).toBeLessThanOrEqual(60);
    // With the default slice (4 ms), the reader parses more of the input between two turns.
    const whole = await readAll();
    expect(whole.rows).toBe(ROWS + 1);
    expect(whole.perTurn).toBeGreaterThan(60);
  });
});
