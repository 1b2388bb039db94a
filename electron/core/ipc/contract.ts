/**
 * The renderer ↔ main contract: one map procedure name → {input, output} zod schemas, and one map of event
 * name → payload schema (progress streams). Both transports (Electron IPC in electron/main/ipc.ts and the
 * loopback HTTP server of browser mode in http-server.ts) serve exactly this surface through dispatch.ts;
 * test/ipc/surface.test.ts snapshots it so that adding or widening a procedure is a visible, reviewed change.
 *
 * Inputs are strict (unknown fields refused); outputs are parsed before they leave the main side, which also
 * strips anything a handler returned that the contract does not name (an API key can never ride along).
 */
import { z } from 'zod';
import { KEY_STORE_WARNINGS } from '../names.js';
import { API_KEY_PATTERN } from '../spec/constants.js';
import { BaseUrl, Language, ProfileName, Theme } from '../settings/settings.js';
import { DATA_SHEET_NAMES } from '../workbook/types.js';
import type { EventName, ProcedureName } from './names.js';
import { workEvents, workProcedures } from './contract-work.js';

const Empty = z.object({}).strict();

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
  .regex(API_KEY_PATTERN, 'An API key looks like svc-<key_id>-<secret> (copy it whole from Settings › Integrations › API Keys)');

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

/** A file the user handed to the app; the main side keeps its path, the renderer only the opaque id. */
export const PickedFile = z.object({ fileId: z.string(), name: z.string(), size: z.number().int() });
export type PickedFile = z.infer<typeof PickedFile>;

export const TemplateSheet = z.enum(DATA_SHEET_NAMES);

export const TemplatesList = z.object({
  combinedFileName: z.string(),
  /** in onboarding order */
  sheets: z.array(z.object({ name: TemplateSheet, fileName: z.string() })),
});

export const GeneratedTemplate = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  /** the .xlsx file, base64 */
  dataBase64: z.string(),
  byteLength: z.number().int(),
  /** present when pre-filled from the connection */
  referenceData: z
    .object({
      profileId: ProfileId,
      plants: z.number().int(),
      materials: z.number().int(),
      products: z.number().int(),
      /** parts the key may not read, left out */
      skipped: z.array(z.object({ part: z.enum(['plants', 'materials', 'products']), errCode: z.string() })),
    })
    .nullable(),
});

interface ProcedureDef {
  input: z.ZodType;
  output: z.ZodType;
  /** one line for reviewers of the surface snapshot */
  summary: string;
}

export const procedures = {
  'app.info': { summary: 'Name, version, transport mode and how keys are stored', input: Empty, output: AppInfo },
  'settings.get': { summary: 'UI preferences', input: Empty, output: Preferences },
  'settings.update': {
    summary: 'Change UI preferences',
    input: z.object({ language: Language.optional(), theme: Theme.optional() }).strict(),
    output: Preferences,
  },
  'profiles.list': { summary: 'Connection profiles (keys masked) and the active one', input: Empty, output: ProfilesState },
  'profiles.save': { summary: 'Create or update a profile; the key is stored, never returned', input: SaveProfileInput, output: ProfileView },
  'profiles.delete': { summary: 'Delete a profile and its stored key', input: z.object({ profileId: ProfileId }).strict(), output: ProfilesState },
  'profiles.select': { summary: 'Make a profile the active connection', input: z.object({ profileId: ProfileId }).strict(), output: ProfilesState },
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
  'templates.list': { summary: 'The template sheets in onboarding order', input: Empty, output: TemplatesList },
  'templates.generate': {
    summary: 'Build the combined or a per-sheet template, optionally pre-filled from the active connection',
    input: z.object({ sheet: z.union([z.literal('all'), TemplateSheet]), withReferenceData: z.boolean().default(false) }).strict(),
    output: GeneratedTemplate,
  },
  'files.pickWorkbook': {
    summary: 'Let the user choose a workbook with the native dialog (desktop only: supported=false in browser mode)',
    /** multiple: several sources at once (.xlsx and .csv files of one import); `files` holds them */
    input: z.object({ multiple: z.boolean().default(false) }).strict(),
    output: z.object({ supported: z.boolean(), file: PickedFile.nullable(), files: z.array(PickedFile) }),
  },
  'files.upload': {
    summary: 'Hand a workbook to the app as bytes (browser mode, drag and drop); returns its opaque id',
    input: z
      .object({
        name: z.string().min(1).max(1000),
        // base64 of at most 100 MB (the reader's file limit)
        dataBase64: z
          .string()
          .min(1)
          .max(Math.ceil((100 * 1024 * 1024) / 3) * 4)
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
      })
      .strict(),
    output: PickedFile,
  },
  'files.takeOpened': {
    summary: 'Workbooks the OS opened with the app (file association) not yet taken by the Import screen',
    input: Empty,
    output: z.object({ files: z.array(PickedFile) }),
  },
  ...workProcedures,
} as const satisfies Record<ProcedureName, ProcedureDef>;

export const events = {
  'profiles.changed': ProfilesState,
  'sandbox.changed': SandboxStatus,
  /** a workbook opened with the app by the OS (file association, "Open with") */
  'files.opened': PickedFile,
  ...workEvents,
} as const satisfies Record<EventName, z.ZodType>;

export type Procedures = typeof procedures;
export type Events = typeof events;
/** What a caller passes (before defaults). */
export type ProcedureInput<N extends ProcedureName> = z.input<Procedures[N]['input']>;
/** What a handler receives (after parsing and defaults). */
export type ParsedInput<N extends ProcedureName> = z.output<Procedures[N]['input']>;
/** What a caller receives. */
export type ProcedureOutput<N extends ProcedureName> = z.output<Procedures[N]['output']>;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

/** The error half of every response, the same on both transports. Messages are words, never stacks. */
export const RpcErrorCode = z.enum([
  'invalid_input', // the input failed the contract's schema; `issues` says where
  'unknown_procedure',
  'forbidden', // the sender or request is not allowed (wrong frame, token, origin or host)
  'not_found', // a profile (or other local thing) does not exist
  'unavailable', // a needed part is not running (e.g. the embedded sandbox failed to start)
  'api_error', // the service answered with an error; errCode and status say which
  'network_error', // the service could not be reached
  'internal', // a bug: details are in the main-process log, not shown
]);
export type RpcErrorCode = z.infer<typeof RpcErrorCode>;

export const RpcError = z.object({
  code: RpcErrorCode,
  message: z.string(),
  errCode: z.string().optional(),
  status: z.number().int().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type RpcError = z.infer<typeof RpcError>;

export type RpcResult<T = unknown> = { ok: true; data: T } | { ok: false; error: RpcError };
