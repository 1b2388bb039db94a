/**
 * Every command of the CLI, in the order `supply-loader --help` lists them. Each is loaded only when it runs
 * (or for the general help), so a CLI start loads the modules of one command only (see docs/cli.md, start-up).
 */
import type { CliCommand } from '../shared/types.js';

export const COMMAND_LOADERS = {
  template: async () => (await import('./template.js')).templateCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  plan: async () => (await import('./plan.js')).planCommand,
  import: async () => (await import('./import.js')).importCommand,
  mapping: async () => (await import('./mapping.js')).mappingCommand,
  resume: async () => (await import('./resume.js')).resumeCommand,
  watch: async () => (await import('./watch.js')).watchCommand,
  jobs: async () => (await import('./jobs.js')).jobsCommand,
  undo: async () => (await import('./undo.js')).undoCommand,
  export: async () => (await import('./export.js')).exportCommand,
  lca: async () => (await import('./lca.js')).lcaCommand,
  me: async () => (await import('./me.js')).meCommand,
  sandbox: async () => (await import('./sandbox.js')).sandboxCommand,
  profile: async () => (await import('./profile.js')).profileCommand,
} as const satisfies Record<string, () => Promise<CliCommand>>;

export type CommandName = keyof typeof COMMAND_LOADERS;
export const COMMAND_NAMES = Object.keys(COMMAND_LOADERS) as CommandName[];

/** One command by name (undefined for an unknown name). */
export async function loadCommand(name: string): Promise<CliCommand | undefined> {
  return Object.hasOwn(COMMAND_LOADERS, name) ? COMMAND_LOADERS[name as CommandName]() : undefined;
}

/** Every command (for the general help). */
export async function loadCommands(): Promise<CliCommand[]> {
  return Promise.all(COMMAND_NAMES.map((n) => COMMAND_LOADERS[n]()));
}
