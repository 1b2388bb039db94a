/**
 * What the operations of the app work with: the host's services (host.ts) and the work state of the Import,
 * Jobs, Export and LCA screens (work.ts). Each host (Electron main, browser mode) builds one AppServices and
 * hands it to the same handler table.
 */
import type { HostServices } from './host.js';
import type { Work } from './work.js';

export type { Emit, HostServices, Logger, WorkServices } from './host.js';

export interface AppServices extends HostServices {
  /** the work state of the Import, Jobs, Export and LCA screens (work.ts createWork) */
  work: Work;
}
