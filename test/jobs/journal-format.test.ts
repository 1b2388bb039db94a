/**
 * The journal's stored fields keep their names (camelCase in our own types, snake_case only for
 * API bodies and the journal's stored fields): a journal written by an earlier version reads back whole, and
 * what this version writes has the same names, so a rename of EntryOutcome's fields cannot pass unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, readJournal } from '../../core/jobs/journal.js';
import type { EntryOutcome } from '../../core/jobs/types.js';

/** Lines as versions up to this one wrote them (intent, outcome of each kind, session start and stop). */
const EARLIER_JOURNAL = [
  '{"t":"session","event":"start","maskedKey":"svc-k1-****","at":"2026-03-01T10:00:00.000Z"}',
  '{"t":"intent","key":"supplier_company:SC-1","op":"create","external_id":"SC-1","idempotency_key":"8a1f5c1e-0000-4000-8000-000000000001","at":"2026-03-01T10:00:01.000Z"}',
  '{"t":"outcome","key":"supplier_company:SC-1","outcome":"created","id":"11111111-1111-4111-8111-111111111111","status":201,"at":"2026-03-01T10:00:02.000Z"}',
  '{"t":"intent","key":"supplier_plant:PL-1","op":"update","external_id":"PL-1","at":"2026-03-01T10:00:03.000Z"}',
  '{"t":"outcome","key":"supplier_plant:PL-1","outcome":"failed","status":422,"err_code":"err_validation","msg":"name too long","explanation":"The body broke a rule of the spec.","action_hint":"Shorten the name.","at":"2026-03-01T10:00:04.000Z"}',
  '{"t":"outcome","key":"silo:SI-1","outcome":"skipped","reason":"entitlement","msg":"plants limit reached","entitlement_limit":{"dimension":"plants","usage":5,"limit":5},"at":"2026-03-01T10:00:05.000Z"}',
  '{"t":"intent","key":"supplier_product:SP-1","op":"create","external_id":"SP-1","idempotency_key":"8a1f5c1e-0000-4000-8000-000000000002","at":"2026-03-01T10:00:06.000Z"}',
  '{"t":"session","event":"stop","status":"paused","reason":"user_pause","maskedKey":"svc-k1-****","at":"2026-03-01T10:00:07.000Z"}',
].join('\n');

/** The two outcome lines above with stored names (err_code, action_hint, entitlement_limit), as objects. */
const FAILED: EntryOutcome = {
  key: 'supplier_plant:PL-1',
  outcome: 'failed',
  status: 422,
  err_code: 'err_validation',
  msg: 'name too long',
  explanation: 'The body broke a rule of the spec.',
  action_hint: 'Shorten the name.',
};
const SKIPPED: EntryOutcome = {
  key: 'silo:SI-1',
  outcome: 'skipped',
  reason: 'entitlement',
  msg: 'plants limit reached',
  entitlement_limit: { dimension: 'plants', usage: 5, limit: 5 },
};

describe('journal format', () => {
  it('a journal written by an earlier version reads back: outcomes with err_code, action_hint, entitlement_limit; open intents; sessions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sl-journal-'));
    try {
      const path = join(dir, 'journal.jsonl');
      await writeFile(path, `${EARLIER_JOURNAL}\n`);
      const s = await readJournal(path);
      expect(s.badLines).toBe(0);
      expect([...s.outcomes.keys()]).toEqual(['supplier_company:SC-1', 'supplier_plant:PL-1', 'silo:SI-1']);
      expect(s.outcomes.get('supplier_company:SC-1')).toMatchObject({ outcome: 'created', status: 201 });
      expect(s.outcomes.get('supplier_plant:PL-1')).toEqual({ ...FAILED, at: '2026-03-01T10:00:04.000Z' });
      expect(s.outcomes.get('silo:SI-1')).toEqual({ ...SKIPPED, at: '2026-03-01T10:00:05.000Z' });
      expect([...s.openIntents.values()]).toEqual([
        expect.objectContaining({
          key: 'supplier_product:SP-1',
          external_id: 'SP-1',
          idempotency_key: '8a1f5c1e-0000-4000-8000-000000000002',
        }),
      ]);
      expect(s.sessions.map((x) => [x.event, x.status, x.reason, x.maskedKey])).toEqual([
        ['start', undefined, undefined, 'svc-k1-****'],
        ['stop', 'paused', 'user_pause', 'svc-k1-****'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('this version writes the same field names, and reads its own lines back the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sl-journal-'));
    try {
      const path = join(dir, 'journal.jsonl');
      const j = await Journal.open(path);
      await j.session({ event: 'start', maskedKey: 'svc-k1-****' });
      await j.intent({ key: 'supplier_plant:PL-1', op: 'update', external_id: 'PL-1', idempotency_key: 'k-1' });
      await j.outcome(FAILED);
      await j.outcome(SKIPPED);
      await j.close();
      const lines = (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => Object.keys(l).sort())).toEqual([
        ['at', 'event', 'maskedKey', 't'],
        ['at', 'external_id', 'idempotency_key', 'key', 'op', 't'],
        ['action_hint', 'at', 'err_code', 'explanation', 'key', 'msg', 'outcome', 'status', 't'],
        ['at', 'entitlement_limit', 'key', 'msg', 'outcome', 'reason', 't'],
      ]);
      // The earlier version's lines and this version's read the same way.
      const earlier = join(dir, 'earlier.jsonl');
      await writeFile(earlier, `${EARLIER_JOURNAL}\n`);
      const [mine, theirs] = await Promise.all([readJournal(path), readJournal(earlier)]);
      const strip = (o: object | undefined) => ({ ...o, at: undefined });
      expect(strip(mine.outcomes.get('supplier_plant:PL-1'))).toEqual(
        strip(theirs.outcomes.get('supplier_plant:PL-1')),
      );
      expect(strip(mine.outcomes.get('silo:SI-1'))).toEqual(strip(theirs.outcomes.get('silo:SI-1')));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
