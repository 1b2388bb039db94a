/** The `connection` namespace: app info, UI preferences, connection profiles (keys never returned), the embedded sandbox and the connection check. */
import { z } from 'zod';
import { KEY_STORE_WARNINGS } from '../names.js';
import { API_KEY_PATTERN } from '../spec/constants.js';
import { BaseUrl, Language, ProfileName, Theme } from '../settings/settings.js';
import { Empty, type ProcedureDef } from './common.js';

export const SecretStorageInfo = z.object({
  backend: z.string(),
  encrypted: z.boolean(),
  warning: z.enum(KEY_STORE_WARNINGS).nullable(),
});

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  platform: z.string(),
  secretStorage: SecretStorageInfo,
});

export const Preferences = z.object({ language: Language, theme: Theme });

export const ProfileId = z.string().min(1).max(100);

/** What the renderer may know about a profile: never the key, only whether there is one and its masked id. */
export const ProfileView = z.object({
  profileId: ProfileId,
  name: z.string(),
  /** null for the Sandbox profile while the embedded sandbox is not running */
  baseUrl: z.string().nullable(),
  builtIn: z.boolean(),
  hasKey: z.boolean(),
  /** `svc-<key_id>-****` or null */
  maskedKey: z.string().nullable(),
});
export type ProfileView = z.infer<typeof ProfileView>;

export const ProfilesState = z.object({ activeProfileId: ProfileId, profiles: z.array(ProfileView) });
export type ProfilesState = z.infer<typeof ProfilesState>;

export const ApiKeyInput = z
  .string()
  .trim()
  .regex(
    API_KEY_PATTERN,
    'An API key looks like svc-<key_id>-<secret> (copy it whole from Settings › Integrations › API Keys)',
  );

export const SaveProfileInput = z
  .object({
    /** absent = create a new profile */
    profileId: ProfileId.optional(),
    name: ProfileName,
    baseUrl: BaseUrl,
    /** a new key to store; absent = keep the stored key */
    apiKey: ApiKeyInput.optional(),
    /** true = forget the stored key */
    removeKey: z.boolean().optional(),
  })
  .strict();

export const SandboxState = z.enum(['stopped', 'starting', 'running', 'failed']);
export const SandboxStatus = z.object({
  state: SandboxState,
  baseUrl: z.string().nullable(),
  maskedKey: z.string().nullable(),
  manufacturerId: z.string().nullable(),
  /** why it failed, in words */
  message: z.string().nullable(),
});
export type SandboxStatus = z.infer<typeof SandboxStatus>;

export const SandboxSeed = z.enum(['demo', 'empty']);

export const JobKind = z.enum(['import', 'lca', 'export']);
export type JobKind = z.infer<typeof JobKind>;

/** What GET /v2/me (via the client's preflight) says about a profile's key; the key itself only masked. */
export const ConnectionReport = z.object({
  profileId: ProfileId,
  baseUrl: z.string(),
  maskedKey: z.string(),
  apiKeyId: z.string(),
  manufacturerId: z.string(),
  /** the effective scopes right now */
  scopes: z.array(z.string()),
  /** the plants the key reaches right now; code and name only when the key may read plants */
  plants: z.array(z.object({ id: z.string(), code: z.string().nullable(), name: z.string().nullable() })),
  plantsReadable: z.boolean(),
  expiresAt: z.string().nullable(),
  /** scopes the app's jobs need that the key lacks, with the jobs that need them */
  missingScopes: z.array(z.object({ scope: z.string(), jobs: z.array(JobKind) })),
  keyExpired: z.boolean(),
  keyExpiringSoon: z.boolean(),
});
export type ConnectionReport = z.infer<typeof ConnectionReport>;

export const connectionProcedures = {
  'app.info': { summary: 'Name, version, transport mode and how keys are stored', input: Empty, output: AppInfo },
  'settings.get': { summary: 'UI preferences', input: Empty, output: Preferences },
  'settings.update': {
    summary: 'Change UI preferences',
    input: z.object({ language: Language.optional(), theme: Theme.optional() }).strict(),
    output: Preferences,
  },
  'profiles.list': {
    summary: 'Connection profiles (keys masked) and the active one',
    input: Empty,
    output: ProfilesState,
  },
  'profiles.save': {
    summary: 'Create or update a profile; the key is stored, never returned',
    input: SaveProfileInput,
    output: ProfileView,
  },
  'profiles.delete': {
    summary: 'Delete a profile and its stored key',
    input: z.object({ profileId: ProfileId }).strict(),
    output: ProfilesState,
  },
  'profiles.select': {
    summary: 'Make a profile the active connection',
    input: z.object({ profileId: ProfileId }).strict(),
    output: ProfilesState,
  },
  'sandbox.status': { summary: 'State of the embedded API v2 sandbox', input: Empty, output: SandboxStatus },
  'sandbox.reset': {
    summary: 'Reset the embedded sandbox to its demo (or empty) data',
    input: z.object({ seed: SandboxSeed.default('demo') }).strict(),
    output: SandboxStatus,
  },
  'connection.check': {
    summary: 'Ask the service (GET /v2/me) what a profile’s key may do; nothing is written',
    input: z.object({ profileId: ProfileId.optional() }).strict(),
    output: ConnectionReport,
  },
} as const satisfies Record<string, ProcedureDef>;

export const connectionEvents = {
  'profiles.changed': ProfilesState,
  'sandbox.changed': SandboxStatus,
} as const satisfies Record<string, z.ZodType>;
