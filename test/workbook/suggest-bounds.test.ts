/**
 * `mapping suggest` does bounded work on any input: a header or cell of a megabyte is compared by its first
 * MAX_HEADER_CHARS characters only, the header-row search makes no similarity comparisons of data rows, and the
 * delimiter is detected on the first SNIFF_CHARS characters — a quoted cell longer than the sample ends the
 * peek's records, never the header row before it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ similarity: [] as number[], sniffed: [] as number[] }));

vi.mock('../../core/workbook/similar.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/workbook/similar.js')>();
  return {
    ...real,
    nameSimilarity: (a: string, b: string, min?: number) => {
      calls.similarity.push(Math.max(a.length, b.length));
      return real.nameSimilarity(a, b, min);
    },
  };
});
vi.mock('../../core/workbook/sources/csv.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/workbook/sources/csv.js')>();
  return {
    ...real,
    detectDelimiter: (sample: string) => {
      calls.sniffed.push(sample.length);
      return real.detectDelimiter(sample);
    },
  };
});

const { MAX_HEADER_CHARS, matchHeader, suggestMapping, suggestSource } =
  await import('../../core/workbook/column-mapping/suggest.js');
const { peekSource, SNIFF_CHARS } = await import('../../core/workbook/sources/peek.js');
const { getSheet } = await import('../../core/workbook/registry.js');
const { nameSimilarity } = await import('../../core/workbook/similar.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'suggest-bounds-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  calls.similarity.length = 0;
  calls.sniffed.length = 0;
});

const header = ['external_id', 'name', 'plant_code', 'material_code', 'unit'];
const source = (rows: string[][]) => ({ name: 'export.csv', file: 'export.csv', isFile: true, rows });

describe('bounded comparisons', () => {
  it('a header of a megabyte is compared by its first MAX_HEADER_CHARS characters', () => {
    const long = `Lieferant ${'y'.repeat(1024 * 1024)}`;
    const s = matchHeader(long, getSheet('supplier-products'));
    expect(calls.similarity.length).toBeGreaterThan(0);
    expect(Math.max(...calls.similarity)).toBeLessThanOrEqual(MAX_HEADER_CHARS);
    // The suggestion names the whole header (the draft maps the column as the file spells it).
    if (s) expect(s.column).toBe(long);
  });

  it('a data cell of a megabyte costs no longer comparison either', () => {
    const r = suggestMapping([source([header, ['SP-1', 'x'.repeat(1024 * 1024), 'PL-MUC', 'MAT-SAND', 'KG']])]);
    expect(r.perSource[0].sheet).toBe('supplier-products');
    expect(Math.max(0, ...calls.similarity)).toBeLessThanOrEqual(MAX_HEADER_CHARS);
  });

  it('the header-row search makes no similarity comparisons of data rows: 30 rows cost what the header alone does', () => {
    suggestSource(source([header]));
    const headerOnly = calls.similarity.length;
    calls.similarity.length = 0;
    const rows = Array.from({ length: 29 }, (_, i) => [`SP-${i}`, `Product ${i} long name`, 'PL-MUC', 'MAT', 'KG']);
    suggestSource(source([header, ...rows]));
    expect(calls.similarity.length).toBe(headerOnly);
  });

  it('the similarity with a minimum is exact at or above it and below it under it', () => {
    for (const [a, b] of [
      ['truck_distance_km', 'truck_km'],
      ['plant', 'plant_code'],
      ['abcdef', 'uvwxyz'],
      ['matrial', 'material'],
    ]) {
      const full = nameSimilarity(a, b);
      const bounded = nameSimilarity(a, b, 0.6);
      if (full >= 0.6) expect(bounded).toBe(full);
      else expect(bounded).toBeLessThan(0.6);
    }
  });
});

describe('bounded sniffing', () => {
  it('a quoted cell of a megabyte: the delimiter is detected on SNIFF_CHARS characters and the header row is read', async () => {
    const f = path.join(dir, 'bigcell.csv');
    fs.writeFileSync(f, `external_id;name;plant_code\nA1;"${'x'.repeat(1024 * 1024)}";PL\n`);
    const [p] = await peekSource(f);
    expect(calls.sniffed.length).toBeGreaterThan(0);
    expect(Math.max(...calls.sniffed)).toBeLessThanOrEqual(SNIFF_CHARS);
    expect(p.csv?.delimiter).toBe(';');
    expect(p.rows[0]).toEqual(['external_id', 'name', 'plant_code']);
  });

  it('a 150 KB pipe-delimited file: sniffed on its first SNIFF_CHARS characters, every column found', async () => {
    const f = path.join(dir, 'pipe.csv');
    let s = `${header.join('|')}\n`;
    for (let i = 0; s.length < 150 * 1024; i++) s += `SP-${i}|Product ${i}|PL-MUC|MAT-SAND|KG\n`;
    fs.writeFileSync(f, s);
    const peeked = await peekSource(f);
    expect(Math.max(...calls.sniffed)).toBeLessThanOrEqual(SNIFF_CHARS);
    expect(peeked[0].csv?.delimiter).toBe('|');
    const r = suggestMapping(peeked);
    expect(r.perSource[0].columns.map((c) => c.field)).toEqual(header);
  });
});
