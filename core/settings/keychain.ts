/**
 * API keys in the OS keychain, shared by the CLI, browser mode and the desktop app: Keychain on
 * macOS, Credential Manager on Windows, Secret Service on Linux, through @napi-rs/keyring (an optional
 * dependency with prebuilt binaries). One entry per profile: service `supply-loader`, account = profile id.
 *
 * Where no keychain can be used (the package is missing, or the platform store is unreachable: CI, headless
 * Linux without a Secret Service), keys go to the 0600 file of FileSecretStore and `info()` carries the
 * `plain_file` warning. Reading always looks in the keychain first, then in the file, so a key saved while the
 * keychain was unreachable is still found once it is reachable, and is moved into it at the next save.
 */
import { createRequire } from 'node:module';
import { maskApiKey } from '../spec/constants.js';
import { FileSecretStore, type SecretStore, type SecretStoreInfo } from './secrets.js';

export const KEYCHAIN_SERVICE = 'supply-loader';

/** The few keychain operations we need, synchronous (as @napi-rs/keyring's Entry is). */
export interface KeychainBackend {
  /** e.g. 'os' — shown in `info().backend` as `keychain:<name>`. */
  readonly name: string;
  /** The secret, or undefined when there is no entry. Throws when the platform store cannot be reached. */
  get(account: string): string | undefined;
  set(account: string, secret: string): void;
  /** Removes the entry; no entry is not an error. */
  delete(account: string): void;
}

interface NapiEntry {
  getPassword(): string | null | undefined;
  setPassword(password: string): void;
  deletePassword(): boolean | void;
}
type NapiKeyring = { Entry: new (service: string, account: string) => NapiEntry };

const NO_ENTRY = /no ?entry|no matching entry|not found/i;

/** The OS keychain through @napi-rs/keyring, or null when the package (or its binary) is not installed. */
export function osKeychain(service = KEYCHAIN_SERVICE): KeychainBackend | null {
  let mod: NapiKeyring;
  try {
    mod = createRequire(import.meta.url)('@napi-rs/keyring') as NapiKeyring;
  } catch {
    return null;
  }
  const entry = (account: string) => new mod.Entry(service, account);
  return {
    name: 'os',
    get(account) {
      try {
        return entry(account).getPassword() ?? undefined;
      } catch (e) {
        if (NO_ENTRY.test(String((e as Error)?.message))) return undefined;
        throw e;
      }
    },
    set(account, secret) {
      entry(account).setPassword(secret);
    },
    delete(account) {
      try {
        entry(account).deletePassword();
      } catch (e) {
        if (!NO_ENTRY.test(String((e as Error)?.message))) throw e;
      }
    },
  };
}

/** Keychain first, the 0600 file as the fallback (see the module comment). */
export class SharedSecretStore implements SecretStore {
  /** null: not probed yet; the reason in words when the keychain cannot be used. */
  private unusable: string | null | undefined;

  constructor(
    readonly file: FileSecretStore,
    private readonly keychain: KeychainBackend | null,
  ) {}

  /** Whether the keychain can be used now (probed once, by reading an entry that need not exist). */
  private usable(): boolean {
    if (this.unusable === undefined) {
      if (!this.keychain) this.unusable = 'no keychain package is installed';
      else {
        try {
          this.keychain.get('__probe__');
          this.unusable = null;
        } catch (e) {
          this.unusable = e instanceof Error ? e.message : String(e);
        }
      }
    }
    return this.unusable === null;
  }

  async get(profileId: string): Promise<string | undefined> {
    if (this.usable()) {
      const k = this.keychain!.get(profileId);
      if (k !== undefined) return k;
    }
    return this.file.get(profileId);
  }

  async has(profileId: string): Promise<boolean> {
    return (await this.get(profileId)) !== undefined;
  }

  async masked(profileId: string): Promise<string | undefined> {
    const k = await this.get(profileId);
    return k === undefined ? undefined : maskApiKey(k);
  }

  async set(profileId: string, secret: string): Promise<void> {
    if (this.usable()) {
      this.keychain!.set(profileId, secret);
      // A copy left in the file from a time without keychain is removed: the key lives in one place.
      if (await this.file.has(profileId)) await this.file.delete(profileId);
      return;
    }
    await this.file.set(profileId, secret);
  }

  async delete(profileId: string): Promise<void> {
    if (this.usable()) this.keychain!.delete(profileId);
    if (await this.file.has(profileId)) await this.file.delete(profileId);
  }

  info(): SecretStoreInfo {
    if (this.usable()) return { backend: `keychain:${this.keychain!.name}`, encrypted: true, warning: null };
    return { backend: 'file', encrypted: false, warning: 'plain_file' };
  }

  /** Why keys are in the file rather than the keychain (for the warning), or null when the keychain is used. */
  fallbackReason(): string | null {
    return this.usable() ? null : this.unusable!;
  }
}

/**
 * The secret store of a config dir, the same for the CLI, browser mode and the desktop app, so a profile set
 * up in one is usable by the others. `keychain` is injectable for tests (null: no keychain).
 */
export function openSecretStore(dir: string, keychain: KeychainBackend | null = osKeychain()): SharedSecretStore {
  return new SharedSecretStore(FileSecretStore.inDir(dir), keychain);
}

/**
 * Which keychain a process uses. `SUPPLY_LOADER_KEYCHAIN=off` never uses one, `on` always tries. By default the
 * keychain is used for the user's own config dir, and not for a dir given by SUPPLY_LOADER_CONFIG_DIR (portable
 * use and tests): such a dir keeps its keys with it, in its 0600 file.
 */
export function keychainFor(
  env: NodeJS.ProcessEnv = process.env,
  portableDir = Boolean(env.SUPPLY_LOADER_CONFIG_DIR?.trim()),
): KeychainBackend | null {
  const mode = env.SUPPLY_LOADER_KEYCHAIN?.trim().toLowerCase();
  if (mode === 'off') return null;
  if (mode !== 'on' && portableDir) return null;
  return osKeychain();
}
