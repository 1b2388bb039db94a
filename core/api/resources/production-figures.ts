/**
 * Production figures of a product instance (the quantity produced per year, in the product's `unit`).
 * The spec names the scopes (`view:processes` reads, `edit:processes` writes "the production figures on a
 * product instance") but shows no path or payload; the sandbox's choice is
 * GET/PUT /v2/product-instances/{id}/production-figures with `{production_figures: [{year, quantity}]}`
 * (docs/api-assumptions.md). PUT sets the years sent and leaves the others, so re-sending is a no-op and a PUT
 * is retried like a GET.
 *
 * Tolerant: a real service without this endpoint (404 or 405) gives an ApiError `client_endpoint_unavailable`
 * whose message sends the operator to the web interface; the answer is read loosely (unknown fields kept).
 */
import { ProductionFigures, ProductionFiguresPut, type ProductionFigure } from '../../spec/schemas.js';
import { checkProductionFigureYears } from '../../spec/rules.js';
import { ApiError } from '../errors.js';
import { invalidRequest, ruleProblems } from '../create.js';
import { strictParser } from '../parse.js';
import type { CallOptions } from '../resource.js';
import type { Transport } from '../transport.js';

export type { ProductionFigure, ProductionFigures };

export const PRODUCTION_FIGURES_UNAVAILABLE_MESSAGE =
  'The service does not offer production figures through the API (the endpoint answered 404/405): enter the production data in the web interface.';

export interface ProductionFiguresApi {
  /** Figures by year, ascending as the service gives them. */
  get(instanceId: string, o?: CallOptions): Promise<ProductionFigure[]>;
  /** Sets the years given (others unchanged); returns every figure after the write. */
  put(
    instanceId: string,
    figures: readonly ProductionFigure[],
    o?: CallOptions & { producedFrom?: number; producedTo?: number | null },
  ): Promise<ProductionFigure[]>;
}

export function productionFiguresPath(instanceId: string): string {
  if (typeof instanceId !== 'string' || instanceId.trim() === '')
    throw new TypeError('a product instance id is required');
  return `/v2/product-instances/${encodeURIComponent(instanceId)}/production-figures`;
}

/** A 404/405 means the service has no such endpoint: say so in words, and point to the web interface. */
function unavailable(e: unknown, endpoint: string): unknown {
  if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
    return new ApiError({
      status: e.status,
      err_code: 'client_endpoint_unavailable',
      msg: PRODUCTION_FIGURES_UNAVAILABLE_MESSAGE,
      endpoint,
      classification: 'unknown',
      retryable: false,
    });
  }
  return e;
}

function figuresOf(parsed: ProductionFigures): ProductionFigure[] {
  return parsed.production_figures
    .filter((f): f is { year: number; quantity: number } => typeof f.quantity === 'number')
    .map((f) => ({ year: f.year, quantity: f.quantity }));
}

export function productionFiguresApi(transport: Transport): ProductionFiguresApi {
  const parse = strictParser(ProductionFigures);
  /** One exchange with the figures of an instance (a PUT with its body); the answer is every figure. */
  const call = async (
    method: 'GET' | 'PUT',
    instanceId: string,
    o: CallOptions,
    body?: unknown,
  ): Promise<ProductionFigure[]> => {
    const endpoint = `${method} /v2/product-instances/{id}/production-figures`;
    try {
      const res = await transport.callSafe({
        method,
        path: productionFiguresPath(instanceId),
        body,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      return figuresOf(parse(res.body, endpoint));
    } catch (e) {
      throw unavailable(e, endpoint);
    }
  };
  return {
    get: (instanceId, o = {}) => call('GET', instanceId, o),
    async put(instanceId, figures, o = {}) {
      const endpoint = 'PUT /v2/product-instances/{id}/production-figures';
      const body = ProductionFiguresPut.safeParse({ production_figures: figures });
      if (!body.success) throw invalidRequest(endpoint, body.error.issues);
      if (o.producedFrom !== undefined) {
        const bad = checkProductionFigureYears(
          { produced_from: o.producedFrom, produced_to: o.producedTo ?? null },
          body.data.production_figures,
        );
        if (bad.length > 0) throw ruleProblems(endpoint, bad);
      }
      return call('PUT', instanceId, o, body.data);
    },
  };
}
