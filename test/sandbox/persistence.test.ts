/** --data FILE: nothing is lost across a restart; the write is atomic; the CLI starts and prints URL + key. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { sandbox, supplierProductBody, supplierSetup } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence', () => {
  it('a restart with the same data file loses nothing: entities, deletions, BOMs, keys, idempotency, production, LCA', async () => {
    const file = join(dir, 'store.json');
    const a = await sandbox({ dataFile: file, seed: 'demo' });
    const { cat, supplierPlantId } = await supplierSetup(a, 'P');
    const plant = cat.plants[0].id;
    const mk = (code: string) =>
      a.api('POST', '/v2/supplier-products', {
        body: supplierProductBody({
          external_id: code,
          plant_id: plant,
          elementary_id: cat.elementaries[0].id,
          supplier_plant_id: supplierPlantId,
        }),
      });
    const kept = (await mk('P-KEEP')).body;
    const gone = (await mk('P-GONE')).body;
    await a.api('DELETE', `/v2/supplier-products/${gone.id}`);
    const siloBody = {
      plant_id: plant,
      name: 'silo',
      items: [{ supplier_product_id: kept.id, annual_items: [{ year: 2024, amount: 3 }] }],
    };
    const silo = await a.api('POST', '/v2/silos', { body: siloBody, headers: { 'idempotency-key': 'persist-1' } });
    expect(silo.status).toBe(201);
    const inst = (await a.api('GET', '/v2/product-instances?limit=1')).body.data[0];
    await a.api('PUT', `/v2/product-instances/${inst.id}/bom`, {
      body: { bom: [{ type: 'silo', ref: silo.body.id, mass_kg: 9 }] },
    });
    await a.control('PUT', '/__sandbox/production', { product_instance_id: inst.id, year: 2001, quantity: 77 });
    await a.control('PUT', '/__sandbox/lca', { queued_ms: 0, processing_ms: 0 });
    await a.api('POST', `/v2/product-instances/${inst.id}/lca-update`);
    const results = (await a.api('GET', `/v2/product-instances/${inst.id}/lca-results`)).body;
    expect(results.job.status).toBe('completed');
    const keptNow = (await a.api('GET', `/v2/supplier-products/${kept.id}`)).body;
    expect(keptNow.impacts_per_kg).not.toBeNull();
    const extraKey = await a.key({ scopes: ['view:materials'] });
    const stateBefore = (await a.control('GET', '/__sandbox/state')).body;
    await a.close();

    expect(existsSync(file)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);

    const b = await sandbox({ dataFile: file, seed: 'empty' });
    try {
      expect(b.manufacturerId).toBe(a.manufacturerId);
      expect((await b.control('GET', '/__sandbox/state')).body).toEqual(stateBefore);
      expect((await b.api('GET', `/v2/supplier-products/${kept.id}`)).body).toEqual(keptNow);
      expect((await b.api('GET', `/v2/supplier-products/${gone.id}`)).status).toBe(422);
      expect((await b.api('GET', '/v2/supplier-products?external_id=P-GONE')).body.data).toEqual([]);
      const replay = await b.api('POST', '/v2/silos', { body: siloBody, headers: { 'idempotency-key': 'persist-1' } });
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(silo.text);
      expect((await b.api('GET', `/v2/product-instances/${inst.id}/bom`)).body.bom).toEqual([
        { type: 'silo', ref: silo.body.id, mass_kg: 9 },
      ]);
      expect((await b.api('GET', `/v2/product-instances/${inst.id}/lca-results`)).body).toEqual(results);
      // Keys issued before the restart still work (only their hashes were stored); the new owner key too.
      expect((await b.api('GET', '/v2/supplier-companies', { key: extraKey.key })).status).toBe(200);
      expect((await b.api('GET', '/v2/me', { key: a.ownerKey })).status).toBe(200);
      expect((await b.api('GET', '/v2/me')).status).toBe(200);
    } finally {
      await b.close();
    }
  });

  it('a data file that is not a sandbox file stops the start with a clear message', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ not json');
    await expect(sandbox({ dataFile: file })).rejects.toThrow(/not a sandbox data file/);
  });
});

describe('CLI', () => {
  it('`npm run sandbox -- --port 0 --seed empty` prints the base URL and a working full-scope key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--seed', 'empty'], {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const seen = await new Promise<{ url: string; key: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL and key printed: ${out}`)), 60_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const url = /listening on (http:\/\/[^\s]+)/.exec(out)?.[1];
          const key = /key[^:]*: (svc-[A-Za-z0-9]+-[A-Za-z0-9_]+)/.exec(out)?.[1];
          if (url && key) {
            clearTimeout(timer);
            resolve({ url, key });
          }
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const r = await request(`${seen.url}/v2/me`, { headers: { 'x-api-key': seen.key } });
      expect(r.statusCode).toBe(200);
      const me = (await r.body.json()) as { scopes: string[] };
      expect(me.scopes).toHaveLength(9);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('a bad flag exits with code 2 and the usage', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--seed', 'nope'], {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/--seed must be demo or empty/);
    expect(err).toMatch(/usage:/);
  });
});
