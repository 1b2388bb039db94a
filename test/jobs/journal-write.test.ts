/**
 * The journal writes each line into the file as it is called (synchronously: no trip through the thread pool
 * per line), in order; a line that cannot be written fails that call and every later one (the job stops on it).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../electron/core/jobs/journal.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function journal(): Promise<{ j: Journal; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sl-journal-write-'));
  dirs.push(dir);
  const path = join(dir, 'journal.jsonl');
  return { j: await Journal.open(path), path };
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; key?: string });

describe('journal writes', () => {
  it('an intent is in the file when intent() returns, before anything is awaited (the request goes right after)', async () => {
    const { j, path } = await journal();
    const p1 = j.intent({ key: 'supplier_company:SC-1', op: 'create', external_id: 'SC-1', idempotency_key: 'k1' });
    const p2 = j.intent({ key: 'supplier_company:SC-2', op: 'create', external_id: 'SC-2', idempotency_key: 'k2' });
    expect(lines(path).map((l) => l.key)).toEqual(['supplier_company:SC-1', 'supplier_company:SC-2']);
    await Promise.all([p1, p2]);
    const o = j.outcome({ key: 'supplier_company:SC-1', outcome: 'created', id: 'id-1' });
    expect(lines(path).map((l) => l.t)).toEqual(['intent', 'intent', 'outcome']);
    await o;
    await j.close();
  });

  it.runIf(process.platform === 'linux')(
    'a line that cannot be written (a full disk) rejects, and so does every later one',
    async () => {
      const j = await Journal.open('/dev/full'); // every write: ENOSPC
      await expect(j.intent({ key: 'silo:S-1', op: 'update', external_id: 'S-1' })).rejects.toThrow(/ENOSPC/);
      await expect(j.outcome({ key: 'silo:S-1', outcome: 'updated' })).rejects.toThrow(/ENOSPC/);
      await expect(j.session({ event: 'stop', maskedKey: 'svc-k-****' })).rejects.toThrow(/ENOSPC/);
      await j.close();
    },
  );
});
