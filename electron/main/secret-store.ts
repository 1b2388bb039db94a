/**
 * API keys encrypted with Electron's safeStorage (Keychain on macOS, DPAPI on Windows, libsecret/kwallet on
 * Linux), the ciphertext kept base64 in a JSON document (electron-store 'secrets'). Uses the async API when the
 * Electron version has it. When Linux falls back to the `basic_text` backend the key is only obfuscated with a
 * hard-coded password: info().warning says so and the UI tells the user.
 */
import { z } from 'zod';
import { AppError } from '../../core/app/errors.js';
import { maskApiKey } from '../../core/spec/constants.js';
import type { JsonDocument } from '../../core/settings/json-file.js';
import type { SecretStore, SecretStoreInfo } from '../../core/settings/secrets.js';
import type { SafeStorageLike } from './electron-api.js';

/** Per profile: the ciphertext (base64) and the masked key for display (not secret), so listing never decrypts. */
const Entry = z.object({ cipher: z.string(), masked: z.string() });
type Entry = z.infer<typeof Entry>;
const Shape = z.object({ version: z.literal(2), entries: z.record(z.string(), Entry) });

export const KEYCHAIN_UNAVAILABLE =
  'The system keychain is not available, so the API key cannot be stored safely. Use browser mode or the CLI with SUPPLY_LOADER_API_KEY instead.';
const keychainUnavailable = () => new AppError('unavailable', KEYCHAIN_UNAVAILABLE);

export class SafeStorageSecretStore implements SecretStore {
  constructor(
    private readonly safeStorage: SafeStorageLike,
    private readonly doc: JsonDocument,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  private read(): Record<string, Entry> {
    const raw = this.doc.load();
    if (raw === undefined) return {};
    const parsed = Shape.safeParse(raw);
    return parsed.success ? parsed.data.entries : {};
  }

  private write(entries: Record<string, Entry>): void {
    this.doc.save({ version: 2, entries });
  }

  private async encrypt(plain: string): Promise<Buffer> {
    if (typeof this.safeStorage.encryptStringAsync === 'function') {
      if (
        typeof this.safeStorage.isAsyncEncryptionAvailable === 'function' &&
        !(await this.safeStorage.isAsyncEncryptionAvailable())
      ) {
        throw keychainUnavailable();
      }
      return this.safeStorage.encryptStringAsync(plain);
    }
    if (!this.safeStorage.isEncryptionAvailable()) throw keychainUnavailable();
    return this.safeStorage.encryptString(plain);
  }

  private async decrypt(cipher: Buffer): Promise<string> {
    if (typeof this.safeStorage.decryptStringAsync === 'function')
      return (await this.safeStorage.decryptStringAsync(cipher)).result;
    return this.safeStorage.decryptString(cipher);
  }

  async get(profileId: string): Promise<string | undefined> {
    const e = this.read()[profileId];
    if (e === undefined) return undefined;
    return this.decrypt(Buffer.from(e.cipher, 'base64'));
  }

  async masked(profileId: string): Promise<string | undefined> {
    return this.read()[profileId]?.masked;
  }

  async has(profileId: string): Promise<boolean> {
    return Object.hasOwn(this.read(), profileId);
  }

  async set(profileId: string, secret: string): Promise<void> {
    const cipher = await this.encrypt(secret);
    this.write({ ...this.read(), [profileId]: { cipher: cipher.toString('base64'), masked: maskApiKey(secret) } });
  }

  async delete(profileId: string): Promise<void> {
    const all = this.read();
    delete all[profileId];
    this.write(all);
  }

  /** Which backend encrypts, and whether the user must be warned. Call after app 'ready'. */
  info(): SecretStoreInfo {
    const backend =
      this.platform === 'linux' && this.safeStorage.getSelectedStorageBackend
        ? this.safeStorage.getSelectedStorageBackend()
        : 'os';
    if (backend === 'basic_text') return { backend: 'safeStorage:basic_text', encrypted: false, warning: 'basic_text' };
    if (!this.safeStorage.isEncryptionAvailable())
      return { backend: `safeStorage:${backend}`, encrypted: false, warning: 'unavailable' };
    return { backend: `safeStorage:${backend}`, encrypted: true, warning: null };
  }
}
