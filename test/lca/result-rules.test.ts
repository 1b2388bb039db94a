/**
 * The spec's five rules for LCA results, exercised through the sandbox clock and production controls and
 * observed through runLca (recompute + poll) — the way the app and the CLI use them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainErrCode } from '../../core/api/index.js';
import {
  type LcaProgressEvent,
  type LcaReport,
  readResults,
  runLca,
  serviceCurrentYear,
  blockerNeedsAction,
  selectInstances,
} from '../../core/lca/index.js';
import {
  FAST_POLL,
  type LcaFixture,
  type Materials,
  lcaTiming,
  makeInstance,
  makeMaterials,
  requestsSince,
  setClock,
  setProduction,
  startLcaFixture,
} from './fixture.js';

let f: LcaFixture;
let m: Materials;

beforeAll(async () => {
  f = await startLcaFixture('empty');
  await setClock(f, '2030-06-15T12:00:00Z');
  await lcaTiming(f, { queued_ms: 0, processing_ms: 80 });
  m = await makeMaterials(f, 'PL-MUC', 'RR');
});
afterAll(async () => {
  await f?.close();
});

const concrete = () => [
  { ref: m.cement, mass_kg: 320 },
  { ref: m.sand, mass_kg: 1850 },
  { ref: m.water, mass_kg: 170 },
];

async function lcaOf(
  codes: string[],
  o: { recompute?: boolean; onEvent?: (e: LcaProgressEvent) => void; concurrency?: number; signal?: AbortSignal } = {},
): Promise<LcaReport> {
  const sel = await selectInstances(f.client, { by: 'instances', externalIds: codes });
  expect(sel.unknown).toEqual([]);
  return runLca(f.client, sel.instances, { recompute: o.recompute ?? true, ...FAST_POLL, ...o });
}

const gwpA1A3 = (el: ReturnType<typeof readResults>[number]) =>
  el.values?.find((v) => v.indicator === 'GWP-total' && v.module === 'A1-A3')?.value;

describe('LCA result rules through the sandbox', () => {
  it('rule 1: an open-ended instance is capped at the current calendar year, and the cap moves with the clock', async () => {
    await setClock(f, '2030-06-15T12:00:00Z');
    await makeInstance(f, {
      external_id: 'RR-OPEN',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2027,
      to: null,
      bom: concrete(),
      production: { 2027: 1000, 2028: 1200, 2029: 900 },
    });
    let r = await lcaOf(['RR-OPEN']);
    expect(r.instances[0].outcome).toBe('completed');
    let years = readResults(r.instances[0].results);
    expect(years.map((y) => y.year)).toEqual([2027, 2028, 2029, 2030]);
    expect(years.slice(0, 3).every((y) => y.status === 'computed' && (gwpA1A3(y) ?? 0) > 0)).toBe(true);

    await setClock(f, '2031-03-01T09:00:00Z');
    r = await lcaOf(['RR-OPEN']);
    years = readResults(r.instances[0].results);
    expect(years.map((y) => y.year)).toEqual([2027, 2028, 2029, 2030, 2031]);
    expect(years.find((y) => y.year === 2031)?.partial_year).toBe(true);
    expect(years.find((y) => y.year === 2030)?.partial_year).toBe(false);
  });

  it('rule 2: the current year is blocked until its production data exists, then computed and partial', async () => {
    await setClock(f, '2030-06-15T12:00:00Z');
    await makeInstance(f, {
      external_id: 'RR-CUR',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2028,
      to: null,
      bom: concrete(),
      production: { 2028: 800, 2029: 1000 },
    });
    let r = await lcaOf(['RR-CUR']);
    let y2030 = readResults(r.instances[0].results).find((y) => y.year === 2030)!;
    expect(y2030.status).toBe('blocked');
    expect(y2030.partial_year).toBe(true);
    expect(y2030.values).toEqual([]);
    expect(y2030.blockers.map((b) => [b.type, b.kind])).toEqual([['missing_input', 'production_data']]);
    // a current year without data is something the user must act on
    expect(blockerNeedsAction(2030, serviceCurrentYear(readResults(r.instances[0].results), r.instances[0].job))).toBe(
      true,
    );

    await setProduction(f, r.instances[0].instance.id, 2030, 450);
    r = await lcaOf(['RR-CUR']);
    const years = readResults(r.instances[0].results);
    y2030 = years.find((y) => y.year === 2030)!;
    const y2029 = years.find((y) => y.year === 2029)!;
    expect(y2030.status).toBe('computed');
    expect(y2030.partial_year).toBe(true);
    expect(y2030.production_quantity).toBe(450);
    expect(y2029.partial_year).toBe(false);
    // same BOM: the partial year's value is its quantity × the per-unit value
    expect(gwpA1A3(y2030)! / 450).toBeCloseTo(gwpA1A3(y2029)! / 1000, 9);
  });

  it('rule 3: a future year covered by produced_to is listed, blocked even with data, until the year arrives', async () => {
    await setClock(f, '2030-06-15T12:00:00Z');
    const id = await makeInstance(f, {
      external_id: 'RR-FUT',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2029,
      to: 2032,
      bom: concrete(),
      production: { 2029: 700, 2030: 300, 2032: 999 },
    });
    let r = await lcaOf(['RR-FUT']);
    let years = readResults(r.instances[0].results);
    expect(years.map((y) => [y.year, y.status])).toEqual([
      [2029, 'computed'],
      [2030, 'computed'],
      [2031, 'blocked'],
      [2032, 'blocked'],
    ]);
    const y2032 = years.find((y) => y.year === 2032)!;
    expect(y2032.values).toEqual([]); // data entered, still blocked: not pending computation
    expect(y2032.blockers[0]).toMatchObject({ type: 'missing_input', kind: 'production_data' });
    const current = serviceCurrentYear(years, r.instances[0].job);
    expect(current).toBe(2030);
    expect(blockerNeedsAction(2031, current)).toBe(false);

    await setClock(f, '2032-05-02T08:00:00Z');
    r = await lcaOf(['RR-FUT']);
    years = readResults(r.instances[0].results);
    expect(years.find((y) => y.year === 2032)).toMatchObject({
      status: 'computed',
      partial_year: true,
      production_quantity: 999,
    });
    expect(years.find((y) => y.year === 2031)).toMatchObject({ status: 'blocked', partial_year: false });
    expect(blockerNeedsAction(2031, serviceCurrentYear(years, r.instances[0].job))).toBe(true);
    expect(id).toBe(r.instances[0].instance.id);
  });

  it('rule 4: results are empty while the job runs, and the poller keeps polling on job.status, not on emptiness', async () => {
    await setClock(f, '2030-06-15T12:00:00Z');
    const id = await makeInstance(f, {
      external_id: 'RR-RUN',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2028,
      to: 2029,
      bom: concrete(),
      production: { 2028: 10, 2029: 20 },
    });
    await lcaTiming(f, { queued_ms: 200, processing_ms: 900 });
    try {
      await f.client.lca.update(id);
      const during = await f.client.lca.results(id);
      expect(['queued', 'processing']).toContain(during.job.status);
      expect(during.results).toEqual([]);

      const { last_seq } = await requestsSince(f, 0);
      const events: LcaProgressEvent[] = [];
      const r = await lcaOf(['RR-RUN'], { recompute: false, onEvent: (e) => events.push(e) });
      expect(r.instances[0].outcome).toBe('completed');
      expect(readResults(r.instances[0].results).map((y) => [y.year, y.status])).toEqual([
        [2028, 'computed'],
        [2029, 'computed'],
      ]);
      expect(events.some((e) => e.state === 'queued' || e.state === 'processing')).toBe(true);
      expect(events.at(-1)).toMatchObject({ state: 'done', jobStatus: 'completed', finished: 1, total: 1 });
      const polls = (await requestsSince(f, last_seq)).entries.filter(
        (e) => e.method === 'GET' && e.path.endsWith(`/${id}/lca-results`),
      );
      expect(polls.length).toBeGreaterThanOrEqual(2);
    } finally {
      await lcaTiming(f, { queued_ms: 0, processing_ms: 80 });
    }
  });

  it('rule 4 (other half): empty results of a never-computed instance do not mean running — idle stops polling at once', async () => {
    const id = await makeInstance(f, {
      external_id: 'RR-IDLE',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2028,
      to: 2029,
      bom: concrete(),
      production: { 2028: 10 },
    });
    const { last_seq } = await requestsSince(f, 0);
    const r = await lcaOf(['RR-IDLE'], { recompute: false });
    expect(r.instances[0]).toMatchObject({ outcome: 'idle', job_status: 'idle', results: [], err_code: null });
    const polls = (await requestsSince(f, last_seq)).entries.filter((e) => e.path.endsWith(`/${id}/lca-results`));
    expect(polls).toHaveLength(1);
  });

  it('rule 5: a job made to fail (fail_next) stops polling and is reported with its err_code and the catalog explanation', async () => {
    await setClock(f, '2030-06-15T12:00:00Z');
    await makeInstance(f, {
      external_id: 'RR-FAIL',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2029,
      to: 2029,
      bom: concrete(),
      production: { 2029: 5 },
    });
    await makeInstance(f, {
      external_id: 'RR-OK',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2029,
      to: 2029,
      bom: concrete(),
      production: { 2029: 5 },
    });
    await lcaTiming(f, { fail_next: 'err_lca_mass_balance' });
    const events: LcaProgressEvent[] = [];
    const r = await lcaOf(['RR-FAIL', 'RR-OK'], { concurrency: 1, onEvent: (e) => events.push(e) });
    const [failed, ok] = r.instances;
    expect(failed).toMatchObject({
      outcome: 'failed',
      job_status: 'failed',
      err_code: 'err_lca_mass_balance',
      results: [],
    });
    expect(failed.explanation).toBe(explainErrCode('err_lca_mass_balance').explanation);
    expect(failed.action).toBe(explainErrCode('err_lca_mass_balance').action);
    expect(ok.outcome).toBe('completed');
    expect(r.summary).toMatchObject({ total: 2, completed: 1, failed: 1 });
    expect(events.find((e) => e.externalId === 'RR-FAIL' && e.state === 'failed')?.errCode).toBe(
      'err_lca_mass_balance',
    );
  });

  it('err_lca_update_not_queued: a recompute already in flight is waited for, not reported as a failure', async () => {
    const id = await makeInstance(f, {
      external_id: 'RR-BUSY',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2029,
      to: 2029,
      bom: concrete(),
      production: { 2029: 5 },
    });
    await lcaTiming(f, { queued_ms: 0, processing_ms: 700 });
    try {
      await f.client.lca.update(id);
      const { last_seq } = await requestsSince(f, 0);
      const r = await lcaOf(['RR-BUSY']);
      expect(r.instances[0]).toMatchObject({
        outcome: 'completed',
        waited_for_running_job: true,
        recomputed: false,
        err_code: null,
      });
      expect(readResults(r.instances[0].results)).toHaveLength(1);
      const updates = (await requestsSince(f, last_seq)).entries.filter(
        (e) => e.method === 'POST' && e.path.endsWith(`/${id}/lca-update`),
      );
      expect(updates.map((e) => e.err_code)).toEqual(['err_lca_update_not_queued']);
    } finally {
      await lcaTiming(f, { queued_ms: 0, processing_ms: 80 });
    }
  });

  it('cancelling stops the run at once and keeps what was done', async () => {
    await makeInstance(f, {
      external_id: 'RR-SLOW1',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2029,
      to: 2029,
      bom: concrete(),
    });
    await makeInstance(f, {
      external_id: 'RR-SLOW2',
      article: 'ART-20030',
      plantCode: 'PL-MUC',
      from: 2029,
      to: 2029,
      bom: concrete(),
    });
    await lcaTiming(f, { queued_ms: 0, processing_ms: 60_000 });
    try {
      const ac = new AbortController();
      const r = await lcaOf(['RR-SLOW1', 'RR-SLOW2'], {
        concurrency: 1,
        signal: ac.signal,
        onEvent: (e) => {
          if (e.state === 'processing' || e.state === 'queued') ac.abort();
        },
      });
      expect(r.aborted?.reason).toBe('cancelled');
      expect(r.instances.map((i) => i.outcome)).toEqual(['cancelled', 'cancelled']);
      expect(r.instances[0].recomputed).toBe(true);
    } finally {
      await lcaTiming(f, { queued_ms: 0, processing_ms: 80 });
    }
  });

  it('a key revoked mid-run stops the run (auth): the rest is skipped, what finished is kept', async () => {
    for (const n of [1, 2, 3]) {
      await makeInstance(f, {
        external_id: `RR-KEY${n}`,
        article: 'ART-20030',
        plantCode: 'PL-MUC',
        from: 2029,
        to: 2029,
        bom: concrete(),
        production: { 2029: 5 },
      });
    }
    const key = await f.ctl<{ key: string; api_key_id: string }>('POST', '/__sandbox/keys', {
      scopes: ['view:products', 'edit:products', 'view:plants', 'view:materials', 'view:recipes'],
      plant_ids: null,
    });
    const { createApiClient } = await import('../../core/api/index.js');
    const client = createApiClient({ baseUrl: f.baseUrl, apiKey: key.key, retry: { maxAttempts: 2, baseMs: 10 } });
    // long enough that the revocation lands while the second instance's job runs
    await lcaTiming(f, { queued_ms: 0, processing_ms: 400 });
    try {
      const sel = await selectInstances(client, { by: 'instances', externalIds: ['RR-KEY1', 'RR-KEY2', 'RR-KEY3'] });
      let revoked = false;
      const r = await runLca(client, sel.instances, {
        recompute: true,
        concurrency: 1,
        ...FAST_POLL,
        onEvent: (e) => {
          if (e.state === 'done' && !revoked) {
            revoked = true;
            void f.ctl('DELETE', `/__sandbox/keys/${key.api_key_id}`);
          }
        },
      });
      expect(r.aborted).toMatchObject({ reason: 'auth', err_code: 'err_not_authenticated' });
      expect(r.instances.map((i) => i.outcome)).toEqual(['completed', 'error', 'skipped']);
      expect(r.instances[0].results.length).toBe(1);
      expect(r.instances[1].err_code).toBe('err_not_authenticated');
      expect(r.summary).toMatchObject({ completed: 1, error: 1, skipped: 1 });
      expect(JSON.stringify(r)).not.toContain(key.key.split('-').at(-1)!);
    } finally {
      await client.close();
      await lcaTiming(f, { queued_ms: 0, processing_ms: 80 });
    }
  });
});
