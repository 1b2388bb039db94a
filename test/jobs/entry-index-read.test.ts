/**
 * The job's compact index reads an entry back from plan-entries.jsonl by its offset (synchronously: one line from
 * the page cache), the same entry as written, in any order and after close(); a file cut short is named, never
 * read as garbage.
 */
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EntryIndex, forEachLine } from '../../core/jobs/entry-index.js';
import type { PlanEntry } from '../../core/jobs/types.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function entry(n: number): PlanEntry {
  return {
    key: `supplier_company:SC-${n}`,
    kind: 'supplier_company',
    sheet: 'supplier-companies',
    rows: [{ sheet: 'supplier-companies', row: n + 1 }],
    action: 'create',
    level: 0,
    externalId: `SC-${n}`,
    label: `Firma ${n} — ünïcödé`,
    body: { external_id: `SC-${n}`, name: `Firma ${n} — ünïcödé`.repeat((n % 5) + 1) },
  } as unknown as PlanEntry;
}

describe('EntryIndex.entry', () => {
  it('reads each entry back as written, in any order, also after close()', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sl-entry-index-'));
    dirs.push(dir);
    const file = join(dir, 'plan-entries.jsonl');
    const entries = Array.from({ length: 50 }, (_, n) => entry(n));
    writeFileSync(file, '');
    for (const e of entries) appendFileSync(file, `${JSON.stringify(e)}\n`);
    const index = await EntryIndex.fromFile(file);
    for (const i of [49, 0, 17, 17, 33]) expect(await index.entry(i)).toEqual(entries[i]);
    await index.close();
    expect(await index.entry(5)).toEqual(entries[5]);
    await index.close();
  });

  it('a file cut short after it was indexed: the entry is named as missing, not parsed from garbage', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sl-entry-index-'));
    dirs.push(dir);
    const file = join(dir, 'plan-entries.jsonl');
    writeFileSync(file, [entry(1), entry(2)].map((e) => `${JSON.stringify(e)}\n`).join(''));
    const index = await EntryIndex.fromFile(file);
    truncateSync(file, 40);
    await expect(index.entry(1)).rejects.toThrow(`${file} is shorter than its index (entry 2)`);
    await index.close();
  });
});

describe('forEachLine', () => {
  it('every line of a file of several blocks, at its offset, the lines across a block boundary whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sl-entry-lines-'));
    dirs.push(dir);
    const file = join(dir, 'plan-entries.jsonl');
    // ~2.6 MB of lines of varied lengths (multi-byte characters among them), a last line without a newline
    const lines = Array.from({ length: 6_000 }, (_, n) => JSON.stringify(entry(n)).repeat((n % 7) + 1));
    writeFileSync(file, `${lines.join('\n')}\n\n${lines[3]}`);
    const bytes = readFileSync(file);
    const seen: { text: string; offset: number; length: number }[] = [];
    const buffers = new Set<ArrayBufferLike>();
    await forEachLine(file, (line, offset, length) => {
      seen.push({ text: line.toString('utf8'), offset, length });
      buffers.add(line.buffer);
    });
    const want = [...lines, '', lines[3]];
    expect(seen.map((s) => s.text)).toEqual(want);
    for (const s of seen) expect(bytes.subarray(s.offset, s.offset + s.length).toString('utf8')).toBe(s.text);
    // Read into one buffer again and again (a line across two blocks is a copy of its own): not a new block for
    // every megabyte, each held outside the heap until a collection.
    expect(buffers.size).toBeLessThan(1 + 6);
  });
});
