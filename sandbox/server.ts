/** Builds the Fastify server of one sandbox: pipeline, /v2 endpoints, /__sandbox control API. */
import Fastify, { type FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, clientErrorHandler, frameworkErrors, installPipeline } from './http.js';
import { catalogRoutes } from './routes/catalog.js';
import { controlRoutes } from './routes/control.js';
import { prechainProductRoutes } from './routes/prechain-products.js';
import { productInstanceRoutes } from './routes/product-instances.js';
import { siloRoutes } from './routes/silos.js';
import { supplierProductRoutes } from './routes/supplier-products.js';
import { supplierRoutes } from './routes/suppliers.js';
import type { Store } from './store.js';

export function buildServer(store: Store, opts: { logger?: boolean } = {}): FastifyInstance {
  const app = Fastify({
    logger: opts.logger ? { level: 'info', redact: ['req.headers["x-api-key"]'] } : false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors,
  });

  // JSON bodies: an empty body reads as "no body" (e.g. POST .../lca-update sent with a JSON content type).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // the default JSON parser is synchronous and reports through done (its type also allows a promise)
    void parseJson(req, text, done);
  });

  installPipeline(app, store);
  catalogRoutes(app, store);
  supplierRoutes(app, store);
  supplierProductRoutes(app, store);
  siloRoutes(app, store);
  productInstanceRoutes(app, store);
  prechainProductRoutes(app, store);
  controlRoutes(app, store);
  return app;
}
