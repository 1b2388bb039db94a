/**
 * /v2/me tells, before anything is sent, which planned operations the key cannot do — missing scope
 * (OPERATION_SCOPES, one table), unreachable plant, key expiring soon — against sandbox keys and members.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlannedOperation } from '../../core/api/index.js';
import { catalog, client, control, lastSeq, requestsSince, sandbox, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
beforeAll(async () => {
  sb = await sandbox('demo');
  cat = await catalog(sb);
});
afterAll(() => sb.close());

const newKey = (body: Record<string, unknown>) =>
  control<{ key: string; api_key_id: string; owner_profile_id: string }>(sb, 'POST', '/keys', body);

describe('preflight', () => {
  it('lists missing scopes, unreachable plants and a soon-expiring key; sends only GET /v2/me', async () => {
    const k = await newKey({
      scopes: ['view:materials', 'edit:materials', 'view:plants'],
      plant_ids: [cat.plants[0].id],
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    const c = client(sb, { apiKey: k.key });
    const plan: PlannedOperation[] = [
      { operation: 'supplierProducts.create', plant_id: cat.plants[0].id, count: 40 },
      { operation: 'supplierProducts.create', plant_id: cat.plants[1].id, count: 5 },
      { operation: 'silos.create', plant_id: cat.plants[0].id, count: 3 },
      { operation: 'productInstances.create', plant_id: cat.plants[0].id, count: 2 },
      { operation: 'bom.put', plant_ids: [cat.plants[0].id, cat.plants[2].id], count: 2 },
      { operation: 'lca.update', count: 2 },
    ];
    const since = await lastSeq(sb);
    const r = await c.preflight(plan);
    const log = (await requestsSince(sb, since)).entries;
    expect(log.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v2/me']);
    expect(r.ok).toBe(false);
    expect(r.key).toBe(`svc-${k.api_key_id}-****`);
    const brief = r.problems.map((p) => [p.kind, p.operation, p.scope ?? p.plant_id, p.count]);
    expect(brief).toEqual(
      expect.arrayContaining([
        ['plant_unreachable', 'supplierProducts.create', cat.plants[1].id, 5],
        ['missing_scope', 'productInstances.create', 'edit:products', 2],
        ['missing_scope', 'bom.put', 'edit:recipes', 2],
        ['plant_unreachable', 'bom.put', cat.plants[2].id, 2],
        ['missing_scope', 'lca.update', 'edit:products', 2],
      ]),
    );
    expect(r.problems.length).toBe(5);
    expect(r.warnings.map((w) => w.kind)).toEqual(['key_expiring']);
    await c.close();
  });

  it('follows the issuing member at once (capping) and the legacy edit:recipes rule', async () => {
    const k = await newKey({ scopes: ['view:products', 'edit:products'], plant_ids: null, legacy: true });
    const c = client(sb, { apiKey: k.key });
    const plan: PlannedOperation[] = [
      { operation: 'bom.put', plant_ids: [cat.plants[1].id] },
      { operation: 'productInstances.create', plant_id: cat.plants[1].id },
    ];
    const ok = await c.preflight(plan);
    expect(ok.ok).toBe(true);
    expect(ok.scopes).toContain('edit:recipes');
    await control(sb, 'PUT', `/members/${k.owner_profile_id}`, {
      scopes: ['view:products'],
      plant_ids: [cat.plants[0].id],
    });
    const capped = await c.preflight(plan);
    expect(capped.ok).toBe(false);
    expect(capped.problems.map((p) => p.kind).sort()).toEqual([
      'missing_scope',
      'missing_scope',
      'plant_unreachable',
      'plant_unreachable',
    ]);
    await control(sb, 'PUT', `/members/${k.owner_profile_id}`, {
      scopes: ['view:products', 'edit:products', 'edit:recipes'],
      plant_ids: null,
    });
    expect((await c.preflight(plan)).ok).toBe(true);
    await c.close();
  });

  it('a full-scope owner key passes every operation of the table', async () => {
    const c = client(sb);
    const { OPERATION_SCOPES } = await import('../../core/spec/scopes.js');
    const plan = Object.keys(OPERATION_SCOPES).map(
      (operation) => ({ operation, plant_id: cat.plants[2].id }) as PlannedOperation,
    );
    const r = await c.preflight(plan);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    await c.close();
  });
});
