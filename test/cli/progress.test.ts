/**
 * The progress bar: drawn on stderr only on a terminal and never with --json; redrawn at most every 100 ms;
 * shows count, percentage, rate and ETA, ending at the total.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProgressBar } from '../../core/cli/output/progress.js';
import { cli, sandbox, tmpDir, type Sandbox } from './helpers.js';
import { buildDataset, fillWorkbook } from './dataset.js';

describe('ProgressBar', () => {
  it('redraws at most every interval, in place, with count, %, rate and ETA; done() ends the line', () => {
    let t = 0;
    let out = '';
    const bar = new ProgressBar({
      write: (s) => (out += s),
      total: 200,
      label: 'importing',
      now: () => t,
      columns: 100,
    });
    const draws = () => (out.match(/\r/g) ?? []).length;
    expect(draws()).toBe(1); // drawn at once
    for (let i = 0; i < 50; i++) bar.tick(); // same instant: no redraw
    expect(draws()).toBe(1);
    t = 1000;
    bar.tick(50, 'note');
    expect(draws()).toBe(2);
    expect(bar.line()).toMatch(/^importing \[#+-+\] 100\/200 50% 100\.0\/s ETA 00:01 note$/);
    bar.done();
    expect(out.endsWith('\n')).toBe(true);
    bar.tick(); // after done: nothing more
    expect(out.endsWith('\n')).toBe(true);
  });

  it('an unknown total shows a count and a rate only', () => {
    let t = 0;
    const bar = new ProgressBar({ write: () => {}, total: 0, label: 'reading silos', now: () => t });
    t = 2000;
    bar.tick(400);
    expect(bar.line()).toBe('reading silos 400 200.0/s');
  });
});

describe('progress in commands', () => {
  let sb: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sb = await sandbox('demo');
    dir = tmpDir();
    expect((await cli(['template', '-o', 'template.xlsx'], { cwd: dir })).code).toBe(0);
    for (const p of ['TTY', 'PIPE', 'JSON']) {
      await fillWorkbook(
        path.join(dir, 'template.xlsx'),
        buildDataset({ prefix: p, products: 4, instances: 2 }),
        path.join(dir, `${p}.xlsx`),
        {
          lean: true,
        },
      );
    }
  });
  afterAll(async () => {
    await sb.close();
  });
  const run = (args: string[], isTTY: boolean) =>
    cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir: path.join(dir, 'jobs'), isTTY });

  it('on a terminal: an import draws its bar on stderr and ends at the total; stdout stays clean', async () => {
    const r = await run(['import', 'TTY.xlsx'], true);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\rimporting \[/);
    const last = r.stderr
      .split('\r')
      .filter((s) => s.startsWith('importing'))
      .at(-1)!;
    const m = /(\d+)\/(\d+) 100%/.exec(last);
    expect(m).not.toBeNull();
    expect(m![1]).toBe(m![2]);
    expect(r.stdout).not.toContain('\r');
  });

  it('piped (not a terminal) or --json: no bar at all', async () => {
    const piped = await run(['import', 'PIPE.xlsx'], false);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('\r');
    const json = await run(['import', 'JSON.xlsx', '--json'], true);
    expect(json.code).toBe(0);
    expect(json.stderr).not.toContain('\r');
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });
});
