/**
 * API keys are secrets: they live in a SecretStore, never in the settings document, and are never sent to the
 * renderer (it only gets {hasKey, maskedKey}). The desktop app provides a safeStorage-backed store
 * (electron/main/secret-store.ts); browser mode and the CLI use FileSecretStore below.
 */
import path from 'node:path';
import type { JsonDocument } from './json-file.js';
import { JsonFile } from './json-file.js';
import { z } from 'zod';
import type { KeyStoreWarning } from '../names.js';
import { maskApiKey } from '../spec/constants.js';

export interface SecretStoreInfo {
  /** e.g. 'safeStorage:gnome_libsecret', 'safeStorage:basic_text', 'file' */
  backend: string;
  /** true when keys are encrypted with an OS-protected key (Keychain, DPAPI, libsecret, kwallet). */
  encrypted: boolean;
  /** Set when the user should know that keys are only obfuscated or stored in plain text. */
  warning: KeyStoreWarning | null;
}

export interface SecretStore {
  get(profileId: string): Promise<string | undefined>;
  set(profileId: string, secret: string): Promise<void>;
  delete(profileId: string): Promise<void>;
  has(profileId: string): Promise<boolean>;
  /** `svc-<key_id>-****` of the stored key, without decrypting it where the store can avoid that. */
  masked(profileId: string): Promise<string | undefined>;
  info(): SecretStoreInfo;
}

const SecretsFileShape = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) });

/**
 * Keys in a JSON file readable by the owner only (mode 0600) under the user config dir. NOT encrypted:
 * anyone who can read the user's files can read the keys. Used by browser mode and the CLI, where no OS
 * keychain API is at hand; documented in docs/architecture.md.
 */
export class FileSecretStore implements SecretStore {
  private readonly doc: JsonDocument;

  constructor(location: string | JsonDocument) {
    this.doc = typeof location === 'string' ? new JsonFile(location, 0o600) : location;
  }

  /** The key file's path (for messages; never its content). */
  get location(): string {
    return this.doc.location;
  }

  static inDir(dir: string): FileSecretStore {
    return new FileSecretStore(path.join(dir, 'secrets.json'));
  }

  private read(): Record<string, string> {
    const raw = this.doc.load();
    if (raw === undefined) return {};
    const parsed = SecretsFileShape.safeParse(raw);
    if (!parsed.success)
      throw new Error(`The key file ${this.doc.location} is damaged. Delete it and enter the keys again.`);
    return parsed.data.secrets;
  }

  private write(secrets: Record<string, string>): void {
    this.doc.save({ version: 1, secrets });
  }

  async get(profileId: string): Promise<string | undefined> {
    return this.read()[profileId];
  }

  async has(profileId: string): Promise<boolean> {
    return Object.hasOwn(this.read(), profileId);
  }

  async masked(profileId: string): Promise<string | undefined> {
    const key = this.read()[profileId];
    return key === undefined ? undefined : maskApiKey(key);
  }

  async set(profileId: string, secret: string): Promise<void> {
    this.write({ ...this.read(), [profileId]: secret });
  }

  async delete(profileId: string): Promise<void> {
    const all = this.read();
    delete all[profileId];
    this.write(all);
  }

  info(): SecretStoreInfo {
    return { backend: 'file', encrypted: false, warning: 'plain_file' };
  }
}
