/**
 * The read runs beside the service walks on the main thread: exceljs parses what the feed has handed over in one
 * go, without a turn of the event loop, so the feed reads only a little ahead of it. Even when the reader lets
 * the loop turn after every batch of rows (a slice of 0 ms), the bytes handed to exceljs between two turns stay
 * bounded (with 256 KB read ahead, a turn let the feed fill its buffer, and the next batch parsed all of it).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { headerOf, rowOf, supplierProduct, tempDir, writeXlsx } from './helpers.js';

/** Bytes the feed handed over since the last turn of the event loop, and the most seen. */
let sinceTurn = 0;
let mostBetweenTurns = 0;
let fed = 0;

vi.mock('../../core/workbook/feed.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/workbook/feed.js')>();
  return {
    ...real,
    workbookFeed: (...args: Parameters<typeof real.workbookFeed>) => {
      const stream = real.workbookFeed(...args);
      const emit = stream.emit.bind(stream);
      stream.emit = (event: string | symbol, ...rest: unknown[]) => {
        if (event === 'data') {
          const n = (rest[0] as Buffer).length;
          fed += n;
          sinceTurn += n;
          mostBetweenTurns = Math.max(mostBetweenTurns, sinceTurn);
        }
        return emit(event, ...rest);
      };
      return stream;
    },
  };
});

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const ROWS = 10_000;
let path: string;
beforeAll(async () => {
  path = tmp.file('big.xlsx');
  const rows = [];
  for (let i = 0; i < ROWS; i++)
    rows.push(rowOf('supplier-products', supplierProduct(i, { name: `Lieferprodukt mit langem Namen ${i}` })));
  await writeXlsx(path, { 'supplier-products': [headerOf('supplier-products'), ...rows] });
}, 60_000);

describe('the read in slices', () => {
  it('hands exceljs a bounded amount between two turns of the event loop, and reads every row', async () => {
    let running = true;
    const tick = () => {
      sinceTurn = 0;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const parsed = await readWorkbook(path, { sliceMs: 0 });
      expect(parsed.sheets[0].rows).toHaveLength(ROWS);
    } finally {
      running = false;
    }
    expect(fed).toBeGreaterThan(2_000_000);
    expect(mostBetweenTurns).toBeLessThanOrEqual(64 * 1024);
  });
});
