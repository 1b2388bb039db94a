/**
 * The dry run never guesses: a row whose own code could not be looked up is blocked (never a create of an
 * entity that may exist), and a delete of an entity still in use is blocked with what uses it unless the same
 * plan removes that use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { PlanContext } from '../../electron/core/jobs/plan.js';
import type { Plan, PlanEntry } from '../../electron/core/jobs/types.js';
import { planFile, startEnv, writeTestWorkbook, type Env, type SheetData } from './helpers.js';

let env: Env;
let n = 0;

beforeAll(async () => {
  env = await startEnv('empty');
});
afterAll(async () => {
  await env?.close();
});

async function plan(d: SheetData, options: NonNullable<PlanContext['options']> = {}): Promise<Plan> {
  const path = join(env.dir, `never-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client: env.client, options });
}
const entryOf = (p: Plan, key: string): PlanEntry => {
  const e = p.entries.find((x) => x.key === key);
  if (!e) throw new Error(`no entry ${key} in ${p.entries.map((x) => x.key).join(', ')}`);
  return e;
};

describe("a row's own code that could not be looked up", () => {
  it.each([
    ['a few codes (?external_id= lookups)', 2],
    ['many codes (one walk)', 8],
  ])('%s: the rows are blocked with the resource and the failure, never planned as creates', async (_, count) => {
    const codes = Array.from({ length: count }, (_, i) => `UNREAD-${count}-${i + 1}`);
    await env.control('PUT', '/__sandbox/faults', { error_rate: 1, only: { method: 'GET', path_suffix: '/supplier-companies' } });
    let p: Plan;
    try {
      p = await plan({ 'supplier-companies': codes.map((c) => ({ external_id: c, name: `Name ${c}` })) });
    } finally {
      await env.control('PUT', '/__sandbox/faults', {});
    }
    for (let i = 0; i < count; i++) {
      const e = entryOf(p, `supplier-companies!${i + 2}`);
      expect(e.action).toBe('blocked');
      expect(e.body).toBeUndefined();
      expect(e.problems).toHaveLength(1);
      const [problem] = e.problems ?? [];
      expect(problem.code).toBe('service_unreadable');
      expect(problem.field).toBe('external_id');
      expect(problem.params?.resource).toBe('supplier_companies');
      expect(problem.message).toMatch(/could not read supplier companies from the service: err_\w+/);
    }
    expect(p.summary.byAction.create ?? 0).toBe(0);
  });
});
