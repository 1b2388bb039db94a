import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_CODES, ERR_CODES, ERR_CODE_GROUPS, ERR_CODE_LIST } from '../../core/spec/err-codes.js';
import { ApiError, explainErrCode } from '../../core/api/errors.js';

/** Parse "All codes the platform can emit" of the spec: `Group: code, code, ….` lines up to "Tied cases". */
function specCodes(): Map<string, string[]> {
  const specPath = resolve(process.cwd(), '../shared/spec/api-v2.md');
  const text = readFileSync(specPath, 'utf8');
  const start = text.indexOf('All codes the platform can emit:');
  const end = text.indexOf('Tied cases', start);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const groups = new Map<string, string[]>();
  for (const line of text.slice(start, end).split('\n').slice(1)) {
    const m = /^([^:]+):\s*(.+?)\.?\s*$/.exec(line.trim());
    if (!m) continue;
    groups.set(
      m[1].trim(),
      m[2]
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    );
  }
  return groups;
}

describe('error catalog', () => {
  const spec = specCodes();

  it('has every group of the spec, in the spec order, and no other', () => {
    expect([...ERR_CODE_GROUPS]).toEqual([...spec.keys()]);
  });

  it('has every err_code of the spec in the spec group, and invents none', () => {
    const specAll = new Map<string, string>();
    for (const [group, codes] of spec) for (const c of codes) specAll.set(c, group);
    expect(specAll.size).toBeGreaterThan(150);
    for (const [code, group] of specAll) {
      expect(ERR_CODES.get(code)?.group, code).toBe(group);
    }
    for (const info of ERR_CODE_LIST) expect(specAll.has(info.code), `${info.code} is not in the spec`).toBe(true);
    expect(ERR_CODE_LIST.length).toBe(specAll.size);
  });

  it('gives each code a one-line explanation in English and German', () => {
    for (const info of ERR_CODE_LIST) {
      expect(info.explanation.length, info.code).toBeGreaterThan(5);
      expect(info.explanation_de.length, info.code).toBeGreaterThan(5);
      expect(info.explanation).not.toContain('\n');
      if (info.action) expect(info.action_de, info.code).toBeTruthy();
    }
  });

  it('keeps the client codes and the sandbox blocker codes disjoint from the spec codes', async () => {
    for (const c of Object.keys(CLIENT_ERROR_CODES)) {
      expect(ERR_CODES.has(c)).toBe(false);
      expect(c.startsWith('client_')).toBe(true);
    }
    const lcaPath = resolve(process.cwd(), 'sandbox/lca.ts');
    if (existsSync(lcaPath)) {
      const mod = (await import(/* @vite-ignore */ lcaPath)) as { BLOCKER_CODES?: readonly string[] };
      expect(mod.BLOCKER_CODES?.length ?? 0).toBeGreaterThan(0);
      for (const b of mod.BLOCKER_CODES ?? []) {
        expect(ERR_CODES.has(b), `blocker ${b} collides with an err_code`).toBe(false);
      }
    }
  });

  it('keeps unknown codes verbatim, non-retryable, for the operator', () => {
    const x = explainErrCode('err_brand_new_thing');
    expect(x.known).toBe(false);
    expect(x.retryable).toBe(false);
    expect(x.explanation).toContain('err_brand_new_thing');
    const e = new ApiError({ status: 500, err_code: 'err_brand_new_thing', msg: 'x', endpoint: 'GET /v2/silos' });
    expect(e.classification).toBe('server');
    expect(e.retryable).toBe(false);
    expect(e.catalog).toBeUndefined();
    const known = new ApiError({ status: 500, err_code: 'err_not_defined', msg: 'x', endpoint: 'GET /v2/silos' });
    expect(known.retryable).toBe(true);
    expect(known.catalog?.group).toBe('General');
  });

  it('classifies by status and err_code', () => {
    const mk = (status: number, err_code: string) =>
      new ApiError({ status, err_code, msg: '', endpoint: 'X' }).classification;
    expect(mk(401, 'err_not_authenticated')).toBe('auth');
    expect(mk(403, 'err_permission_denied')).toBe('permission');
    expect(mk(403, 'err_svc_daily_limit_reached')).toBe('daily_limit');
    expect(mk(422, 'err_entitlement_limit_reached')).toBe('entitlement');
    expect(mk(409, 'err_external_id_exists')).toBe('conflict');
    expect(mk(422, 'err_not_valid')).toBe('validation');
    expect(mk(0, 'client_network_error')).toBe('network');
  });

  it('keeps an unrecognized entitlement dimension verbatim', () => {
    const e = new ApiError({
      status: 403,
      err_code: 'err_entitlement_limit_reached',
      msg: 'limit',
      endpoint: 'POST /v2/product-instances',
      entitlement_limit: { dimension: 'galaxies', usage: 3, limit: 3 },
    });
    expect(e.entitlement_limit?.dimension).toBe('galaxies');
    expect(e.knownEntitlementDimension).toBe(false);
    expect(e.classification).toBe('entitlement');
    expect(e.retryable).toBe(false);
  });
});
