/**
 * The API v2 client: the one way Supply Loader talks to the service (import engine, LCA export, desktop app,
 * CLI). No electron import; built on undici. See docs/architecture.md and ../shared/spec/api-v2.md.
 */
import { DEFAULT_MAX_CONCURRENCY } from './defaults.js';
import type { Logger as PinoLogger } from 'pino';
import { Me } from '../spec/schemas.js';
import { maskApiKey } from '../spec/constants.js';
import { retryPolicy } from './backoff.js';
import { strictParser } from './parse.js';
import { preflightReport, type PlannedOperation, type PreflightOptions, type PreflightReport } from './preflight.js';
import type { CallOptions, GettableResource, ReadResource } from './resource.js';
import { type LoggerLike, scrubbingLogger, secretScrubber, silentLogger } from './secrets.js';
import { Transport, type TransportStats } from './transport.js';
import { productsResource, type Product } from './resources/products.js';
import { plantsResource, type Plant } from './resources/plants.js';
import { elementariesResource, type Elementary } from './resources/elementaries.js';
import { compositesResource, type Composite } from './resources/composites.js';
import type {
  PrechainProduct,
  ProductInstance,
  Silo,
  SupplierCompany,
  SupplierPlant,
  SupplierProduct,
} from '../spec/schemas.js';
import { entityResources, type EntityResources } from './resources/entities.js';
import { bomApi, type BomApi } from './resources/bom.js';
import { lcaApi, type LcaApi } from './resources/lca.js';
import { productionFiguresApi, type ProductionFiguresApi } from './resources/production-figures.js';

export {
  ApiError,
  explainErrCode,
  classify,
  type ErrorClassification,
  type ErrCodeExplanation,
  type EntitlementLimit,
} from './errors.js';
export type { ErrCodeInfo } from '../spec/err-codes.js';
export { idempotencyKey, canonicalJson } from './idempotency.js';
export { walkPages, walkItems, WALK_LIMIT, type Page, type PageFetcher } from './pagination.js';
export { PER_CODE_MAX, type CallOptions, type ListQuery, type WalkQuery, type ResolveOptions } from './resource.js';
export type { ReadResource, GettableResource, Resource, DeletableResource } from './resource.js';
export type { CreateOptions, CreateResult, CreateOutcome } from './create.js';
export type { PlannedOperation, PreflightReport, PreflightProblem, PreflightOptions } from './preflight.js';
export type { LoggerLike } from './secrets.js';
export type { LcaApi, LcaUpdateResult, RecomputeOptions, LcaResults, LcaJob } from './resources/lca.js';
export type { BomApi, BomEntry, BomComponent } from './resources/bom.js';
export type { ProductionFiguresApi, ProductionFigure } from './resources/production-figures.js';
export { PRODUCTION_FIGURES_UNAVAILABLE_MESSAGE } from './resources/production-figures.js';
export { isAbortError } from './backoff.js';
export { fieldDifferences } from './compare.js';
export type {
  Me,
  Product,
  Plant,
  Elementary,
  Composite,
  SupplierCompany,
  SupplierPlant,
  SupplierProduct,
  Silo,
  ProductInstance,
  PrechainProduct,
};

export interface ApiClientOptions {
  /** e.g. http://127.0.0.1:4010 (the API lives under /v2 below it). */
  baseUrl: string;
  apiKey: string;
  /** Cap of the adaptive concurrency limiter; default DEFAULT_MAX_CONCURRENCY (16). */
  maxConcurrency?: number;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  retry?: { maxAttempts?: number; maxTotalMs?: number; baseMs?: number; capMs?: number };
  logger?: PinoLogger | LoggerLike;
  /** Known manufacturer id (for Idempotency-Keys); fetched once from /v2/me when not given. */
  manufacturerId?: string;
}

/** The six entity collections the import writes (supplierCompanies … prechainProducts): see resources/entities.ts. */
export interface ApiClient extends EntityResources {
  /** Masked key for display: svc-<key_id>-****. */
  readonly maskedKey: string;
  readonly baseUrl: string;
  me(o?: CallOptions): Promise<Me>;
  readonly products: ReadResource<Product>;
  readonly plants: GettableResource<Plant>;
  readonly elementaries: ReadResource<Elementary>;
  readonly composites: GettableResource<Composite>;
  readonly bom: BomApi;
  readonly lca: LcaApi;
  /** Production figures per year (assumed endpoint; a service without it → client_endpoint_unavailable). */
  readonly productionFigures: ProductionFiguresApi;
  /** Which planned operations the key cannot do, from /v2/me and OPERATION_SCOPES; nothing else is sent. */
  preflight(operations: readonly PlannedOperation[], o?: PreflightOptions & CallOptions): Promise<PreflightReport>;
  /** requests = HTTP exchanges sent, retries = backoff rounds, concurrency = current adaptive limit. */
  stats(): TransportStats;
  close(): Promise<void>;
}

export function createApiClient(opts: ApiClientOptions): ApiClient {
  if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') throw new Error('An API key is required');
  const apiKey = opts.apiKey.trim();
  const scrub = secretScrubber(apiKey);
  const logger = scrubbingLogger(opts.logger ?? silentLogger, scrub);
  const getLogger = () => logger;
  const maxConcurrency = opts.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  const transport = new Transport({
    baseUrl: opts.baseUrl,
    apiKey,
    maxConcurrency,
    timeoutMs: opts.timeoutMs ?? 30_000,
    retry: retryPolicy(opts.retry),
    logger,
    scrub,
  });
  const parseMe = strictParser(Me);

  const me = async (o: CallOptions = {}): Promise<Me> => {
    const res = await transport.callSafe({ method: 'GET', path: '/v2/me', signal: o.signal, timeoutMs: o.timeoutMs });
    const m = parseMe(res.body, 'GET /v2/me');
    mid ??= Promise.resolve(m.manufacturer_id);
    return m;
  };

  let mid: Promise<string> | undefined = opts.manufacturerId ? Promise.resolve(opts.manufacturerId) : undefined;
  const manufacturerId = (signal?: AbortSignal): Promise<string> => {
    if (!mid) {
      const p = me({ signal }).then((m) => m.manufacturer_id);
      mid = p;
      p.catch(() => {
        if (mid === p) mid = undefined;
      });
    }
    return mid;
  };

  const client: ApiClient = {
    maskedKey: maskApiKey(apiKey),
    baseUrl: opts.baseUrl,
    me,
    products: productsResource(transport),
    plants: plantsResource(transport),
    elementaries: elementariesResource(transport),
    composites: compositesResource(transport),
    ...entityResources(transport, manufacturerId, getLogger),
    bom: bomApi(transport),
    lca: lcaApi(transport, getLogger),
    productionFigures: productionFiguresApi(transport),
    async preflight(operations, o = {}) {
      const m = await me(o);
      return preflightReport(m, maskApiKey(apiKey), operations, o);
    },
    stats: () => transport.stats(),
    close: () => transport.close(),
  };
  return client;
}
