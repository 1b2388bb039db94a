/**
 * The one handler table behind both transports, put together from one module per namespace (`handlers/`:
 * connection, templates, import, jobs, export, lca), each a thin adapter from the contract to the app layer
 * (core/app/). No electron import: the Electron main process and the browser-mode HTTP server both
 * call dispatch() with this table and their own AppServices.
 */
import type { HandlerTable } from './contract.js';
import { connectionHandlers } from './handlers/connection.js';
import { exportHandlers } from './handlers/export.js';
import { importHandlers } from './handlers/import.js';
import { jobsHandlers } from './handlers/jobs.js';
import { lcaHandlers } from './handlers/lca.js';
import { lcaImpactHandlers } from './handlers/lca-impact.js';
import { templatesHandlers } from './handlers/templates.js';
import type { AppServices } from '../app/services.js';

export const handlers: HandlerTable<AppServices> = {
  ...connectionHandlers,
  ...templatesHandlers,
  ...importHandlers,
  ...jobsHandlers,
  ...exportHandlers,
  ...lcaHandlers,
  ...lcaImpactHandlers,
};
