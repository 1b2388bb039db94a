/**
 * Where a dry run's entries are in its plan-entries.jsonl (app/sessions/entry-lines.ts): every line that is not
 * blank, found by its line end only, across the reader's chunks; read back one by one or in one pass; a file
 * holding another number of entries than the plan says is refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EntryLines } from '../../core/app/sessions/entry-lines.js';
import type { PlanEntry } from '../../core/jobs/types.js';
import { productEntry } from '../fixtures/plan-entry.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-entry-lines-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const incomplete = (n: number) => new Error(`holds ${n}`);

const entry = (i: number, note = ''): PlanEntry => productEntry(i, { notes: note ? [note] : [] });

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function all(lines: EntryLines): Promise<PlanEntry[]> {
  const out: PlanEntry[] = [];
  await lines.forEachEntry((e, i) => {
    expect(i).toBe(out.length);
    out.push(e);
  });
  return out;
}

describe("a dry run's entries by position in its file", () => {
  it('skips blank lines, reads a last line without its line end, and reads entries back', async () => {
    const entries = [entry(0), entry(1, 'ü – non-ASCII'), entry(2)];
    const text = `${JSON.stringify(entries[0])}\n\n  \r\n${JSON.stringify(entries[1])}\r\n${JSON.stringify(entries[2])}`;
    const lines = await EntryLines.ofFile(write('small.jsonl', text), 3, incomplete);
    expect(lines.size).toBe(3);
    expect(await lines.entry(1)).toEqual(entries[1]);
    expect(await lines.entry(2)).toEqual(entries[2]);
    expect(await lines.entry(0)).toEqual(entries[0]);
    expect(await all(lines)).toEqual(entries);
    await expect(lines.entry(3)).rejects.toThrow(RangeError);
    await lines.close();
  });

  it('finds lines across the reader chunks (lines longer than a chunk among short ones)', async () => {
    const long = 'x'.repeat((1 << 20) + 333);
    const entries = Array.from({ length: 4000 }, (_, i) => entry(i, i % 1000 === 7 ? long : `n${i}`));
    const file = write('large.jsonl', `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const lines = await EntryLines.ofFile(file, entries.length, incomplete);
    expect(lines.size).toBe(entries.length);
    for (const i of [0, 6, 7, 8, 1007, 2500, 3999]) expect(await lines.entry(i)).toEqual(entries[i]);
    expect(await all(lines)).toEqual(entries);
    await lines.close();
  });

  it('refuses a file with another number of entries than the plan says', async () => {
    const file = write('short.jsonl', `${JSON.stringify(entry(0))}\n${JSON.stringify(entry(1))}\n`);
    await expect(EntryLines.ofFile(file, 3, incomplete)).rejects.toThrow('holds 2');
    await expect(EntryLines.ofFile(file, 1, incomplete)).rejects.toThrow('holds 2');
    const none = await EntryLines.ofFile(write('empty.jsonl', ''), 0, incomplete);
    expect(none.size).toBe(0);
    expect(await all(none)).toEqual([]);
  });
});
