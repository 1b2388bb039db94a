/** Every command of the CLI, in the order `supply-loader --help` lists them. */
import type { CliCommand } from '../types.js';
import { meCommand } from './me.js';
import { profileCommand } from './profile.js';
import { sandboxCommand } from './sandbox.js';

export async function loadCommands(): Promise<CliCommand[]> {
  return [meCommand, sandboxCommand, profileCommand];
}
