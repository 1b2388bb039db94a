/**
 * The journal writes its lines in groups (the lines called for while a write runs go out together in the next
 * one), in call order; a line that cannot be written fails that call and every later one (the job stops on it).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../core/jobs/journal.js';

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
  it('lines called for together go out in one write, in call order, each in the file when its promise resolves', async () => {
    const { j, path } = await journal();
    const first = j.intent({ key: 'supplier_company:SC-0', op: 'create', external_id: 'SC-0', idempotency_key: 'k0' });
    const rest = Array.from({ length: 19 }, (_, n) =>
      j.intent({
        key: `supplier_company:SC-${n + 1}`,
        op: 'create',
        external_id: `SC-${n + 1}`,
        idempotency_key: `k${n + 1}`,
      }),
    );
    await first;
    expect(lines(path).map((l) => l.key)[0]).toBe('supplier_company:SC-0');
    await Promise.all(rest);
    expect(lines(path).map((l) => l.key)).toEqual(Array.from({ length: 20 }, (_, n) => `supplier_company:SC-${n}`));
    // the first line alone, the 19 queued behind it together: not one write (and one thread-pool trip) each
    expect(j.writes).toBe(2);
    await j.outcome({ key: 'supplier_company:SC-1', outcome: 'created', id: 'id-1' });
    expect(
      lines(path)
        .map((l) => l.t)
        .slice(-1),
    ).toEqual(['outcome']);
    expect(j.syncs).toBe(1);
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
