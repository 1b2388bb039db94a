/**
 * Lines put aside on disk (jobs/spill.ts BlockWriter, jobs/plan/ahead.ts LinesOnDisk): every byte as given —
 * text with characters of several UTF-8 bytes, bytes, lines longer than a block — and the lines decided ahead
 * read back by row, each bucket of rows with one read, whatever order they were put in.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LinesOnDisk } from '../../core/jobs/plan/ahead.js';
import { BlockWriter } from '../../core/jobs/spill.js';

const dir = mkdtempSync(join(tmpdir(), 'sl-spill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BlockWriter', () => {
  it('writes text and bytes as given, in order, across blocks and past a block', () => {
    const path = join(dir, 'blocks.txt');
    const fd = openSync(path, 'w');
    const out = new BlockWriter(() => fd, 64);
    const parts = ['plain', 'Größe – ½ m³ 🧱', 'x'.repeat(200), '', 'ü'.repeat(30), 'end'];
    let expected = '';
    let size = 0;
    parts.forEach((p, i) => {
      if (i % 2 === 0) size += out.put(p, true);
      else {
        const bytes = Buffer.from(p);
        out.putBytes(bytes, true);
        size += bytes.length + 1;
      }
      expected += `${p}\n`;
    });
    out.put('tail');
    expected += 'tail';
    size += 4;
    out.flush();
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe(expected);
    expect(out.size).toBe(size);
    expect(size).toBe(Buffer.byteLength(expected));
  });
});

describe('LinesOnDisk', () => {
  it('gives back each row its line, reading each bucket of rows once when taken in row order', () => {
    const rows = 10_000;
    const lines = new LinesOnDisk(join(dir, 'ahead'), rows);
    // put in a scrambled order (the walk's), as a decision ahead puts them
    const order = Array.from({ length: rows }, (_, i) => (i * 7919) % rows);
    const where = new Map<number, [number, number]>();
    for (const r of order) where.set(r, lines.put(r, JSON.stringify({ row: r, name: `Kies ${r} – körnig` })));
    for (let r = 0; r < rows; r++) {
      const [at, bytes] = where.get(r)!;
      const got = Buffer.from(lines.get(r, at, bytes)).toString('utf8');
      expect(JSON.parse(got)).toEqual({ row: r, name: `Kies ${r} – körnig` });
    }
    // 10,000 rows are 3 buckets of 4096: one read each, not one per row
    expect(lines.reads).toBe(3);
    lines.close();
  });

  it('reads a bucket again when a row of an earlier one is asked for after a later one', () => {
    const lines = new LinesOnDisk(join(dir, 'again'), 9000);
    const a = lines.put(10, 'first');
    const b = lines.put(8000, 'second');
    expect(Buffer.from(lines.get(8000, ...b)).toString()).toBe('second');
    expect(Buffer.from(lines.get(10, ...a)).toString()).toBe('first');
    expect(lines.reads).toBe(2);
    lines.close();
  });
});
