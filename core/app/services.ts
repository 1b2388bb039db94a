/**
 * What the operations of the app work with: the host's services (host.ts) and the sessions of the Import,
 * Jobs, Export and LCA screens (sessions/sessions.ts). Each host (Electron main, browser mode) builds one AppServices and
 * hands it to the same handler table.
 */
import type { HostServices } from './host.js';
import type { Sessions } from './sessions/sessions.js';

export type { Emit, HostServices, Logger, SessionServices } from './host.js';

export interface AppServices extends HostServices {
  /** the sessions of the Import, Jobs, Export and LCA screens (sessions/sessions.ts createSessions) */
  sessions: Sessions;
}
