/**
 * The parsed workbook holds its cell texts, not the XML they were parsed from (a 200,000-row run stays under 400 MiB): exceljs's
 * shared strings are slices of 16 KB chunks of the sharedStrings part, and a value kept in the parsed workbook
 * would keep its whole chunk alive. Checked in a child process by a heap snapshot: each text of the parsed
 * rows is a flat string of its own (a slice, which holds its parent, is named "(sliced string)" there).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';

const dir = mkdtempSync(join(tmpdir(), 'sl-sst-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reader: shared strings copied out of their XML', () => {
  it('no text value of the parsed workbook is a slice of a larger string', async () => {
    const file = join(dir, 'w.xlsx');
    await writeDataWorkbook(
      file,
      buildDataset({ companies: 2, products: 300, silos: 1, instances: 2, prechain: 1 }, 'SLICE-CHECK'),
    );
    const reader = pathToFileURL(resolve('core/workbook/reader.ts')).href;
    const script = join(dir, 'probe.mts');
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { readWorkbook } from ${JSON.stringify(reader)};
const parsed = await readWorkbook(${JSON.stringify(file)});
const snap = JSON.parse(readFileSync(v8.writeHeapSnapshot(${JSON.stringify(join(dir, 'h.heapsnapshot'))}), 'utf8'));
const { node_fields: f, node_types: [types] } = snap.snapshot.meta;
// a flat string is named by its text in a snapshot; a slice is named "(sliced string)"
const flat = new Set();
for (let i = 0; i < snap.nodes.length; i += f.length) {
  if (types[snap.nodes[i + f.indexOf('type')]] === 'string') flat.add(snap.strings[snap.nodes[i + f.indexOf('name')]]);
}
// V8 copies strings shorter than 13 characters (never slices)
const texts = new Set();
for (const s of parsed.sheets) for (const r of s.rows) for (const v of Object.values(r.values)) if (typeof v === 'string' && v.length >= 13) texts.add(v);
console.log(JSON.stringify({ texts: texts.size, notFlat: [...texts].filter((t) => !flat.has(t)).slice(0, 5) }));
`,
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { texts: number; notFlat: string[] };
    expect(r.texts).toBeGreaterThan(600);
    expect(r.notFlat).toEqual([]);
  }, 60_000);
});
