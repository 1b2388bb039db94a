/**
 * One inspection of a workbook for its walks ahead and its read (app/read-ahead.ts, workbook/reader.ts
 * WorkbookInspections): the sheet list the walks are chosen from is the inspection the reader uses, as long as the
 * file is unchanged; a file changed in between is inspected again, and what is read is the same either way.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import { readWhileWalking } from '../../core/app/read-ahead.js';
import { readAndValidate } from '../../core/app/validate.js';
import { inspectWorkbookFile } from '../../core/workbook/guards.js';
import { DEFAULT_LIMITS } from '../../core/workbook/file-limits.js';
import { WorkbookInspections } from '../../core/workbook/reader.js';
import { buildDataset } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';

vi.mock('../../core/workbook/guards.js', async (original) => {
  const m = await original<typeof import('../../core/workbook/guards.js')>();
  return { ...m, inspectWorkbookFile: vi.fn(m.inspectWorkbookFile) };
});
const inspected = vi.mocked(inspectWorkbookFile);

/** A client whose reads never answer: the walks are started and cancelled, nothing is sent. */
function silentClient(): ApiClient {
  const never = new Promise<never>(() => {});
  const walk = () => ({ [Symbol.asyncIterator]: () => ({ next: () => never }) });
  const resource = { walk };
  return {
    me: () => never,
    stats: () => ({ requests: 0 }),
    products: resource,
    supplierCompanies: resource,
    supplierPlants: resource,
    supplierProducts: resource,
    silos: resource,
    productInstances: resource,
    prechainProducts: resource,
  } as unknown as ApiClient;
}

let dir: string;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sl-inspect-once-'));
  file = join(dir, 'book.xlsx');
  await writeDataWorkbook(
    file,
    buildDataset({ companies: 8, products: 20, silos: 2, instances: 2, prechain: 1 }, 'IO'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  inspected.mockClear();
});

describe('one inspection for the walks ahead and the read', () => {
  it('reads the sheet list once when walks are started beside the read', async () => {
    const w = await readWhileWalking([file], silentClient());
    w.walks?.cancel();
    expect(w.walks).toBeDefined();
    expect(w.report.errors).toBe(0);
    expect(inspected).toHaveBeenCalledTimes(1);
    // the same rows and issues as a read on its own
    const alone = await readAndValidate([file]);
    expect(JSON.stringify(w.parsed.sheets)).toEqual(JSON.stringify(alone.parsed.sheets));
    expect(w.report).toEqual(alone.report);
  });

  it('inspects again a file changed since, or under other limits', async () => {
    const inspections = new WorkbookInspections();
    const first = await inspections.inspect(file, DEFAULT_LIMITS);
    expect(await inspections.inspect(file, { ...DEFAULT_LIMITS })).toBe(first);
    expect(inspected).toHaveBeenCalledTimes(1);
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(await inspections.inspect(file, DEFAULT_LIMITS)).not.toBe(first);
    expect(inspected).toHaveBeenCalledTimes(2);
    await inspections.inspect(file, { ...DEFAULT_LIMITS, maxEntries: 50 });
    expect(inspected).toHaveBeenCalledTimes(3);
  });

  it('never keeps an inspection that failed', async () => {
    const inspections = new WorkbookInspections();
    const broken = join(dir, 'broken.xlsx');
    writeFileSync(broken, 'not a zip');
    await expect(inspections.inspect(broken, DEFAULT_LIMITS)).rejects.toThrow();
    await expect(inspections.inspect(broken, DEFAULT_LIMITS)).rejects.toThrow();
    expect(inspected).toHaveBeenCalledTimes(2);
  });
});
