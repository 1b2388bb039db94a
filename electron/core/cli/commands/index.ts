/** Every command of the CLI, in the order `supply-loader --help` lists them. */
import type { CliCommand } from '../types.js';
import { exportCommand } from './export.js';
import { jobsCommand } from './jobs.js';
import { meCommand } from './me.js';
import { profileCommand } from './profile.js';
import { sandboxCommand } from './sandbox.js';
import { templateCommand } from './template.js';

export async function loadCommands(): Promise<CliCommand[]> {
  return [templateCommand, jobsCommand, exportCommand, meCommand, sandboxCommand, profileCommand];
}
