/**
 * The planning reads go out side by side where they do not depend on each other (the end-to-end
 * bound counts one round trip for them): /v2/me beside the resolution of the workbook's codes, and the BOMs beside the
 * production figures of the instances on the service; the codes' reads before the rows are indexed. Checked by
 * what is in flight when a read is sent (no timing): a read sent only after the other one answered never overlaps it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import type { ApiClient } from '../../core/api/index.js';
import { runPlan } from './job-folder.js';
import { catalog, fullWorkbook, planFile, startEnv, writeTestWorkbook, type Env, type SheetData } from './helpers.js';

/** What the planner did, in order: the rows indexed (WorkbookRows.prepare), codes asked of the service. */
const steps = vi.hoisted(() => [] as string[]);
vi.mock('../../core/jobs/workbook-rows.js', async (original) => {
  const m = await original<typeof import('../../core/jobs/workbook-rows.js')>();
  return {
    ...m,
    indexWorkbook: (...a: Parameters<typeof m.indexWorkbook>) => {
      const wb = m.indexWorkbook(...a);
      return {
        ...wb,
        prepare: (signal?: AbortSignal) => {
          steps.push('rows indexed');
          return wb.prepare(signal);
        },
      };
    },
  };
});

let env: Env;
let data: SheetData;
let path: string;

beforeAll(async () => {
  env = await startEnv('demo');
  data = {
    ...fullWorkbook(await catalog(env)),
    production: [{ product_instance_external_id: 'PI-2', year: 2024, quantity: 10 }],
  };
  path = join(env.dir, 'import.xlsx');
  await writeTestWorkbook(path, data);
});
afterAll(async () => {
  await env?.close();
});

/** `fn` counted while its promise is open: `open()` says how many calls have not answered yet. */
function counted<A extends unknown[], R>(
  fn: (...a: A) => Promise<R>,
): { fn: (...a: A) => Promise<R>; open: () => number } {
  let n = 0;
  return {
    fn: async (...a: A) => {
      n++;
      try {
        return await fn(...a);
      } finally {
        n--;
      }
    },
    open: () => n,
  };
}

describe('planning reads side by side', () => {
  it('sends the resolution of the codes while /v2/me is in flight', async () => {
    const c = env.client;
    const me = counted(c.me);
    let resolvedDuringMe = 0;
    let resolved = 0;
    const resolving = (r: ApiClient['supplierCompanies']): ApiClient['supplierCompanies'] => ({
      ...r,
      resolveExternalIds: (codes, o) => {
        resolved++;
        if (me.open() > 0) resolvedDuringMe++;
        return r.resolveExternalIds(codes, o);
      },
    });
    const client: ApiClient = { ...c, me: me.fn, supplierCompanies: resolving(c.supplierCompanies) };
    const plan = await planFile(path, { client });
    expect(plan.entries.find((e) => e.key === 'supplier-companies!2')?.action).toBe('create');
    expect(resolved).toBe(1);
    expect(resolvedDuringMe).toBe(1);
  });

  it("sends the reads that resolve the codes before it indexes the rows (they need the rows' codes only)", async () => {
    const c = env.client;
    const asking = (r: ApiClient['supplierCompanies']): ApiClient['supplierCompanies'] => ({
      ...r,
      resolveExternalIds: (codes, o) => {
        steps.push('codes asked');
        return r.resolveExternalIds(codes, o);
      },
    });
    steps.length = 0;
    const plan = await planFile(path, { client: { ...c, supplierCompanies: asking(c.supplierCompanies) } });
    expect(steps).toEqual(['codes asked', 'rows indexed']);
    // the same plan as without the order
    expect(plan.entries).toEqual((await planFile(path, { client: c })).entries);
  });

  it('reads the BOMs and the production figures of the instances on the service side by side', async () => {
    const first = await planFile(path, { client: env.client });
    const run = await runPlan(first, { client: env.client, jobsDir: env.jobsDir });
    expect(run.status).toBe('completed');

    const c = env.client;
    const bom = counted(c.bom.get);
    const figures = counted(c.productionFigures.get);
    let overlaps = 0;
    const client: ApiClient = {
      ...c,
      bom: {
        ...c.bom,
        get: (id, o) => {
          if (figures.open() > 0) overlaps++;
          return bom.fn(id, o);
        },
      },
      productionFigures: {
        ...c.productionFigures,
        get: (id, o) => {
          if (bom.open() > 0) overlaps++;
          return figures.fn(id, o);
        },
      },
    };
    const again = await planFile(path, { client });
    // Planned again against what the job created: the BOMs and figures were read, and are unchanged.
    expect(again.entries.filter((e) => e.kind === 'bom' || e.kind === 'production').map((e) => e.action)).toEqual(
      expect.arrayContaining(['unchanged']),
    );
    expect(again.entries.some((e) => e.kind === 'production')).toBe(true);
    expect(overlaps).toBeGreaterThan(0);
  });
});
