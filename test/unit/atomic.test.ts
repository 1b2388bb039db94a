/** The one atomic-write helper: the old file or the new one, never half of one, and no temporary file left. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeAtomic, writeTextAtomic, writeTextAtomicSync } from '../../core/fs/atomic.js';
import { writeTemplate } from '../../core/workbook/template.js';
import { writeWorkbook } from '../../core/workbook/writer.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-atomic-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('atomic writes', () => {
  it('a writer that fails leaves the old file as it was and no temporary file', async () => {
    const f = path.join(dir, 'a.json');
    fs.writeFileSync(f, 'old');
    await expect(
      writeAtomic(f, async (tmp) => {
        fs.writeFileSync(tmp, 'half');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(fs.readFileSync(f, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['a.json']);
  });

  it('replaces the file whole and returns what the writer returned', async () => {
    const f = path.join(dir, 'b.txt');
    fs.writeFileSync(f, 'old');
    expect(await writeAtomic(f, async (tmp) => (fs.writeFileSync(tmp, 'new'), 3))).toBe(3);
    expect(fs.readFileSync(f, 'utf8')).toBe('new');
    await writeTextAtomic(f, 'newer', { sync: true });
    expect(fs.readFileSync(f, 'utf8')).toBe('newer');
    expect(fs.readdirSync(dir).sort()).toEqual(['a.json', 'b.txt']);
  });

  it('the sync form sets the permissions before the file appears', () => {
    const f = path.join(dir, 'c.json');
    writeTextAtomicSync(f, '{}', 0o600);
    expect(fs.readFileSync(f, 'utf8')).toBe('{}');
    if (process.platform !== 'win32') expect(fs.statSync(f).mode & 0o777).toBe(0o600);
  });

  // A file rewritten in place keeps its inode (and is half-written while it is being written); one written
  // through writeAtomic is a new file renamed over the old one.
  it('templates and workbooks are written through it (the old file replaced by a rename, not rewritten)', async () => {
    for (const [name, write] of [
      ['template.xlsx', (f: string) => writeTemplate(f)],
      [
        'rows.xlsx',
        (f: string) => writeWorkbook([{ sheet: 'plants', rows: [{ external_id: 'P1', name: 'Werk' }] }], f),
      ],
    ] as const) {
      const f = path.join(dir, name);
      fs.writeFileSync(f, 'old');
      const before = fs.statSync(f).ino;
      await write(f);
      expect(fs.readFileSync(f).subarray(0, 2).toString()).toBe('PK');
      expect(fs.statSync(f).ino, name).not.toBe(before);
    }
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
