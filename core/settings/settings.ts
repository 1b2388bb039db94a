/**
 * Settings of the app: UI preferences and connection profiles (name + base URL; keys live in a SecretStore).
 * Stored as one JSON document: electron-store in the desktop app, a file under the user config dir in browser
 * mode and for the CLI. No electron import.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LANGUAGE_PREFS, THEME_PREFS } from '../names.js';
import type { JsonDocument } from './json-file.js';
import { StoredMappings } from './stored-code-mappings.js';

/** The built-in profile that talks to the embedded sandbox; its URL and key exist only while the app runs. */
export const SANDBOX_PROFILE_ID = 'sandbox';

export const Language = z.enum(LANGUAGE_PREFS);
export type Language = z.infer<typeof Language>;
export const Theme = z.enum(THEME_PREFS);
export type Theme = z.infer<typeof Theme>;

export const BaseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the base URL of the service')
  .max(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'The base URL must be an http:// or https:// address without user name or password, e.g. https://api.example.com');

export const ProfileName = z.string().trim().min(1, 'Give the profile a name').max(100);

export const StoredProfile = z.object({
  id: z.string().min(1),
  name: ProfileName,
  baseUrl: BaseUrl,
  createdAt: z.string(),
});
export type StoredProfile = z.infer<typeof StoredProfile>;

export const SettingsDocument = z.object({
  schemaVersion: z.literal(1),
  language: Language,
  theme: Theme,
  activeProfileId: z.string().min(1),
  profiles: z.array(StoredProfile),
  /** Saved plant/material code mappings per profile id (code-mappings.ts); absent in documents written before them. */
  // A damaged mappings part is dropped rather than costing the profiles (the whole document would fall back to defaults).
  mappings: z.record(z.string(), StoredMappings).optional().catch(undefined),
  /**
   * Named column mappings per profile id (name → the mapping document, checked by
   * workbook/column-mapping/schema.ts when saved and when used). Not the code mappings above.
   */
  columnMappings: z.record(z.string(), z.record(z.string(), z.unknown())).optional().catch(undefined),
});
export type SettingsDocument = z.infer<typeof SettingsDocument>;

export function defaultSettings(): SettingsDocument {
  return { schemaVersion: 1, language: 'system', theme: 'system', activeProfileId: SANDBOX_PROFILE_ID, profiles: [] };
}

/** Remove trailing slashes so `${baseUrl}/v2/me` is always right. */
export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export class SettingsStore {
  private doc: SettingsDocument;

  constructor(private readonly backend: JsonDocument) {
    const raw = backend.load();
    const parsed = raw === undefined ? undefined : SettingsDocument.safeParse(raw);
    // A missing or unreadable document starts from defaults (the first start selects the Sandbox profile).
    this.doc = parsed?.success ? parsed.data : defaultSettings();
    if (!this.hasProfile(this.doc.activeProfileId)) this.doc.activeProfileId = SANDBOX_PROFILE_ID;
  }

  get location(): string {
    return this.backend.location;
  }

  snapshot(): SettingsDocument {
    return structuredClone(this.doc);
  }

  private commit(next: SettingsDocument): SettingsDocument {
    this.doc = SettingsDocument.parse(next);
    this.backend.save(this.doc);
    return this.snapshot();
  }

  hasProfile(id: string): boolean {
    return id === SANDBOX_PROFILE_ID || this.doc.profiles.some((p) => p.id === id);
  }

  updatePreferences(patch: { language?: Language; theme?: Theme }): SettingsDocument {
    return this.commit({ ...this.doc, ...patch });
  }

  /** Create (no id) or update a stored profile. The built-in Sandbox profile cannot be edited. */
  saveProfile(input: { id?: string; name: string; baseUrl: string }): StoredProfile {
    if (input.id === SANDBOX_PROFILE_ID) throw new SettingsError('The built-in Sandbox profile cannot be changed.');
    const name = ProfileName.parse(input.name);
    const baseUrl = normaliseBaseUrl(BaseUrl.parse(input.baseUrl));
    const profiles = [...this.doc.profiles];
    if (input.id !== undefined) {
      const i = profiles.findIndex((p) => p.id === input.id);
      if (i < 0) throw new SettingsError('That profile does not exist (any more).');
      profiles[i] = { ...profiles[i], name, baseUrl };
      this.commit({ ...this.doc, profiles });
      return profiles[i];
    }
    const created: StoredProfile = { id: randomUUID(), name, baseUrl, createdAt: new Date().toISOString() };
    profiles.push(created);
    this.commit({ ...this.doc, profiles });
    return created;
  }

  deleteProfile(id: string): void {
    if (id === SANDBOX_PROFILE_ID) throw new SettingsError('The built-in Sandbox profile cannot be deleted.');
    if (!this.doc.profiles.some((p) => p.id === id)) throw new SettingsError('That profile does not exist (any more).');
    const profiles = this.doc.profiles.filter((p) => p.id !== id);
    const activeProfileId = this.doc.activeProfileId === id ? SANDBOX_PROFILE_ID : this.doc.activeProfileId;
    const mappings = { ...this.doc.mappings };
    delete mappings[id];
    const columnMappings = { ...this.doc.columnMappings };
    delete columnMappings[id];
    this.commit({ ...this.doc, profiles, activeProfileId, mappings, columnMappings });
  }

  /** The saved code mappings of a profile (see code-mappings.ts for get/save/merge/clear). */
  mappingsOf(profileId: string): StoredMappings | undefined {
    const m = this.doc.mappings?.[profileId];
    return m === undefined ? undefined : structuredClone(m);
  }

  /** Replace (or, with undefined, forget) the code mappings of a profile. */
  setMappings(profileId: string, mappings: StoredMappings | undefined): void {
    if (!this.hasProfile(profileId)) throw new SettingsError('That profile does not exist (any more).');
    const all = { ...this.doc.mappings };
    if (mappings === undefined) delete all[profileId];
    else all[profileId] = mappings;
    this.commit({ ...this.doc, mappings: all });
  }

  /** The named column mappings of a profile (name → document as saved). */
  columnMappingsOf(profileId: string): Record<string, unknown> {
    return structuredClone(this.doc.columnMappings?.[profileId] ?? {});
  }

  /** Save (or, with undefined, remove) a named column mapping of a profile. */
  setColumnMapping(profileId: string, name: string, mapping: unknown): void {
    if (!this.hasProfile(profileId)) throw new SettingsError('That profile does not exist (any more).');
    const all = { ...this.doc.columnMappings };
    const mine = { ...all[profileId] };
    if (mapping === undefined) delete mine[name];
    else mine[name] = mapping;
    all[profileId] = mine;
    this.commit({ ...this.doc, columnMappings: all });
  }

  selectProfile(id: string): void {
    if (!this.hasProfile(id)) throw new SettingsError('That profile does not exist (any more).');
    this.commit({ ...this.doc, activeProfileId: id });
  }
}

/** A user-facing problem with settings (shown in words, no stack). */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}
