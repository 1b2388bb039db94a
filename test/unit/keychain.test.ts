/**
 * The key store shared by the CLI, browser mode and the app: the OS keychain first, the 0600 file
 * as the fallback with a warning, keys saved in the file while no keychain was reachable found and moved later.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keychainFor, openSecretStore, osKeychain, type KeychainBackend } from '../../core/settings/keychain.js';

const KEY = 'svc-abcdef12-0123456789abcdef0123456789abcdef';
const KEY2 = 'svc-ghijkl34-fedcba9876543210fedcba9876543210';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-keychain-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const dir = () => path.join(tmp, `d${++n}`);
const fileText = (d: string) =>
  fs.existsSync(path.join(d, 'secrets.json')) ? fs.readFileSync(path.join(d, 'secrets.json'), 'utf8') : '';

/** An in-memory keychain; `reachable: false` makes every call fail as an unreachable platform store does. */
function memoryKeychain(
  o: { reachable: boolean } = { reachable: true },
): KeychainBackend & { entries: Map<string, string>; reachable: boolean } {
  const entries = new Map<string, string>();
  const k = {
    name: 'memory',
    entries,
    reachable: o.reachable,
    get(account: string) {
      if (!k.reachable) throw new Error("Couldn't access platform storage: AccessDenied");
      return entries.get(account);
    },
    set(account: string, secret: string) {
      if (!k.reachable) throw new Error("Couldn't access platform storage: AccessDenied");
      entries.set(account, secret);
    },
    delete(account: string) {
      if (!k.reachable) throw new Error("Couldn't access platform storage: AccessDenied");
      entries.delete(account);
    },
  };
  return k;
}

describe('SharedSecretStore', () => {
  it('keeps keys in the keychain, not in the file, when one is reachable', async () => {
    const d = dir();
    const kc = memoryKeychain();
    const store = openSecretStore(d, kc);
    await store.set('p1', KEY);
    expect(kc.entries.get('p1')).toBe(KEY);
    expect(fileText(d)).not.toContain(KEY);
    expect(await store.get('p1')).toBe(KEY);
    expect(await store.masked('p1')).toBe('svc-abcdef12-****');
    expect(store.info()).toEqual({ backend: 'keychain:memory', encrypted: true, warning: null });
    // another process (the CLI, the app) opening the same dir with the same keychain reads it
    expect(await openSecretStore(d, kc).get('p1')).toBe(KEY);
    await store.delete('p1');
    expect(kc.entries.has('p1')).toBe(false);
    expect(await store.has('p1')).toBe(false);
  });

  it('falls back to the 0600 file with the plain_file warning when the keychain cannot be reached', async () => {
    const d = dir();
    const store = openSecretStore(d, memoryKeychain({ reachable: false }));
    await store.set('p1', KEY);
    expect(fileText(d)).toContain(KEY);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(d, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(await store.get('p1')).toBe(KEY);
    expect(store.info()).toEqual({ backend: 'file', encrypted: false, warning: 'plain_file' });
    expect(store.fallbackReason()).toMatch(/platform storage/);
    expect(openSecretStore(d, null).fallbackReason()).toMatch(/no keychain package/);
  });

  it('finds a key saved in the file while no keychain was reachable, and moves it into the keychain at the next save', async () => {
    const d = dir();
    await openSecretStore(d, null).set('p1', KEY);
    await openSecretStore(d, null).set('p2', KEY2);
    const kc = memoryKeychain();
    const store = openSecretStore(d, kc);
    expect(await store.get('p1')).toBe(KEY);
    await store.set('p1', KEY);
    expect(kc.entries.get('p1')).toBe(KEY);
    expect(fileText(d)).not.toContain(KEY);
    expect(fileText(d)).toContain(KEY2);
    await store.delete('p2');
    expect(fileText(d)).not.toContain(KEY2);
  });
});

describe('keychainFor', () => {
  it('off never uses one; a portable SUPPLY_LOADER_CONFIG_DIR keeps its keys in its own file unless on', () => {
    expect(keychainFor({ SUPPLY_LOADER_KEYCHAIN: 'off' })).toBeNull();
    expect(keychainFor({ SUPPLY_LOADER_CONFIG_DIR: '/tmp/x' })).toBeNull();
    expect(keychainFor({}, true)).toBeNull();
    const forced = keychainFor({ SUPPLY_LOADER_CONFIG_DIR: '/tmp/x', SUPPLY_LOADER_KEYCHAIN: 'on' });
    expect(forced?.name ?? null).toBe(osKeychain()?.name ?? null);
  });

  it('the real OS keychain package: a round trip where a keychain is reachable, the file (with a reason) where not', async () => {
    const kc = osKeychain();
    expect(kc).not.toBeNull(); // @napi-rs/keyring ships a prebuilt binary for this platform
    const d = dir();
    const store = openSecretStore(d, kc);
    const id = `test-${process.pid}-${Date.now()}`;
    await store.set(id, KEY);
    try {
      expect(await store.get(id)).toBe(KEY);
      if (store.info().warning === null) expect(fileText(d)).not.toContain(KEY);
      else expect(store.fallbackReason()).toBeTruthy();
    } finally {
      await store.delete(id);
    }
    expect(await store.has(id)).toBe(false);
  });
});
