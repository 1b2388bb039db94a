/** Every command of the CLI, in the order `supply-loader --help` lists them. */
import type { CliCommand } from '../types.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { planCommand } from './plan.js';
import { resumeCommand } from './resume.js';
import { validateCommand } from './validate.js';
import { jobsCommand } from './jobs.js';
import { lcaCommand } from './lca.js';
import { meCommand } from './me.js';
import { profileCommand } from './profile.js';
import { sandboxCommand } from './sandbox.js';
import { templateCommand } from './template.js';
import { watchCommand } from './watch.js';

export async function loadCommands(): Promise<CliCommand[]> {
  return [
    templateCommand,
    validateCommand,
    planCommand,
    importCommand,
    resumeCommand,
    watchCommand,
    jobsCommand,
    exportCommand,
    lcaCommand,
    meCommand,
    sandboxCommand,
    profileCommand,
  ];
}
