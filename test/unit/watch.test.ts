/**
 * The watch-folder core (core/app/watch.ts) with an injected importDrop: grouping by a mapping's source
 * globs, a drop stopped by the signal stays resumable and is resumed (same job id) at the next start, an
 * importDrop that throws sends the drop to failed/ with the message, the exit code is the worst drop's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchFolder, type DropImportControl, type ImportDrop } from '../../core/app/watch.js';
import { groupDrops } from '../../core/app/watch-inbox.js';
import { acquireLock, WatchLockedError } from '../../core/app/watch-state.js';

function watchDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-watch-unit-'));
  fs.mkdirSync(path.join(d, 'inbox'));
  return d;
}

const drop = (d: string, name: string, text = 'x') => {
  fs.writeFileSync(path.join(d, 'inbox', name), text);
  fs.writeFileSync(path.join(d, 'inbox', `${name}.ready`), '');
};

describe('groupDrops', () => {
  it('without globs every file is its own drop; with a mapping sources globs the matching files are one drop', () => {
    const files = ['b.xlsx', 'suppliers-2026.csv', 'a.xlsx', 'products-2026.csv'];
    expect(groupDrops(files)).toEqual([['a.xlsx'], ['b.xlsx'], ['products-2026.csv'], ['suppliers-2026.csv']]);
    expect(groupDrops(files, ['SUPPLIERS-*.csv', 'products-????.csv'])).toEqual([
      ['products-2026.csv', 'suppliers-2026.csv'],
      ['a.xlsx'],
      ['b.xlsx'],
    ]);
    expect(groupDrops(files, ['nothing-*.csv'])).toHaveLength(4);
  });
});

describe('watchFolder', () => {
  it('worst exit code of the drops; a throwing importDrop sends its drop to failed/ with the message', async () => {
    const d = watchDir();
    drop(d, 'ok.xlsx');
    drop(d, 'partial.xlsx');
    drop(d, 'boom.xlsx');
    const importDrop: ImportDrop = async (files, outDir) => {
      const name = path.basename(files[0]);
      if (name === 'boom.xlsx') throw new Error('the reader fell over');
      fs.writeFileSync(path.join(outDir, name.replace('.xlsx', '.results.xlsx')), 'r');
      return {
        code: name === 'ok.xlsx' ? 0 : 1,
        outputs: [path.join(outDir, name.replace('.xlsx', '.results.xlsx'))],
        messages: `imported ${name}\n`,
      };
    };
    const res = await watchFolder({ dir: d, once: true, importDrop, stableMs: 60_000, pollMs: 5, onceWaitMs: 50 });
    expect(res.exitCode).toBe(2);
    const by = Object.fromEntries(res.drops.map((r) => [r.files[0], r]));
    expect(by['ok.xlsx']).toMatchObject({ outcome: 'done', exitCode: 0 });
    expect(by['partial.xlsx']).toMatchObject({ outcome: 'failed', exitCode: 1 });
    expect(by['boom.xlsx']).toMatchObject({ outcome: 'failed', exitCode: 2 });
    expect(fs.readFileSync(path.join(by['boom.xlsx'].folder, 'boom.messages.txt'), 'utf8')).toMatch(
      /could not be imported: the reader fell over/,
    );
    expect(by['ok.xlsx'].outputs).toContain(path.join(by['ok.xlsx'].folder, 'ok.results.xlsx'));
    expect(fs.existsSync(path.join(by['ok.xlsx'].folder, 'ok.results.xlsx'))).toBe(true);
  });

  it('a drop stopped by the signal stays in work/ (exit 3); the next start resumes it with the same job id', async () => {
    const d = watchDir();
    drop(d, 'long.xlsx');
    const calls: DropImportControl[] = [];
    const controller = new AbortController();
    const first: ImportDrop = async (_files, _out, signal, control) => {
      calls.push(control);
      controller.abort();
      expect(signal.aborted).toBe(true);
      return { code: 3, jobId: control.jobId, outputs: [], messages: 'cancelled\n' };
    };
    const r1 = await watchFolder({ dir: d, importDrop: first, signal: controller.signal, stableMs: 60_000, pollMs: 5 });
    expect(r1.exitCode).toBe(3);
    expect(r1.drops[0]).toMatchObject({ outcome: 'interrupted' });
    expect(fs.existsSync(path.join(r1.drops[0].folder, 'long.xlsx'))).toBe(true);
    expect(fs.readdirSync(path.join(d, 'done'))).toEqual([]);

    const second: ImportDrop = async (files, _out, _signal, control) => {
      calls.push(control);
      expect(files.map((f) => path.basename(f))).toEqual(['long.xlsx']);
      return { code: 0, jobId: control.jobId, resumed: control.resume, outputs: [], messages: '' };
    };
    const r2 = await watchFolder({
      dir: d,
      once: true,
      importDrop: second,
      stableMs: 60_000,
      pollMs: 5,
      onceWaitMs: 20,
    });
    expect(r2.exitCode).toBe(0);
    expect(calls).toHaveLength(2);
    expect(calls[0].resume).toBe(false);
    expect(calls[1]).toEqual({ jobId: calls[0].jobId, resume: true });
    expect(r2.drops[0]).toMatchObject({ outcome: 'done', resumed: true, drop: r1.drops[0].drop });
    expect(fs.readdirSync(path.join(r2.drops[0].folder)).sort()).toEqual([
      'long.messages.txt',
      'long.xlsx',
      'long.xlsx.ready',
    ]);
  });

  it('outputs are written outside the drop folder and moved in once complete; what a killed watcher left half-written is removed at the next start', async () => {
    const d = watchDir();
    const stateDir = path.join(d, '.supply-loader-watch');
    // As a watcher killed while writing leaves it: the drop taken (state, work folder), a writer's temporary
    // file in the work folder (an older watcher wrote there) and a half-written output in its out folder.
    const stamp = '20260101-000000-000-beef';
    const work = path.join(stateDir, 'work', stamp);
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(path.join(work, 'big.xlsx'), 'input');
    fs.writeFileSync(path.join(work, '.big.results.xlsx.4242.a1b2c3.tmp'), 'PK-half');
    fs.mkdirSync(path.join(stateDir, 'out', stamp), { recursive: true });
    fs.writeFileSync(path.join(stateDir, 'out', stamp, 'big.results.csv'), 'external_id;_res');
    const drop0 = { drop: stamp, files: ['big.xlsx'], jobId: '20260101-000000-abcdef', takenAt: '' };
    fs.writeFileSync(
      path.join(stateDir, 'state.json'),
      JSON.stringify({ format: 'supply-loader/watch@1', drops: [drop0] }),
    );

    const seenOut: string[] = [];
    const importDrop: ImportDrop = async (files, outDir, _signal, control) => {
      expect(control).toEqual({ jobId: drop0.jobId, resume: true });
      // The import writes into a folder of its own, empty, outside done/, failed/ and the work folder.
      expect(fs.readdirSync(outDir)).toEqual([]);
      expect(path.relative(path.join(d, 'done'), outDir).startsWith('..')).toBe(true);
      expect(path.dirname(files[0])).not.toBe(outDir);
      const results = path.join(outDir, 'big.results.xlsx');
      fs.writeFileSync(results, 'PK-whole');
      // Until the import returns, nothing of it is in done/.
      expect(fs.readdirSync(path.join(d, 'done'))).toEqual([]);
      seenOut.push(outDir);
      return { code: 0, jobId: control.jobId, resumed: true, outputs: [results], messages: `results: ${results}\n` };
    };
    const r = await watchFolder({ dir: d, once: true, importDrop, stableMs: 60_000, pollMs: 5, onceWaitMs: 20 });
    expect(r.exitCode).toBe(0);
    const folder = path.join(d, 'done', stamp);
    expect(r.drops[0]).toMatchObject({
      outcome: 'done',
      folder,
      outputs: [path.join(folder, 'big.results.xlsx'), path.join(folder, 'big.messages.txt')],
    });
    expect(fs.readdirSync(folder).sort()).toEqual(['big.messages.txt', 'big.results.xlsx', 'big.xlsx']);
    expect(fs.readFileSync(path.join(folder, 'big.results.xlsx'), 'utf8')).toBe('PK-whole');
    // The messages name the output where it is now.
    expect(fs.readFileSync(path.join(folder, 'big.messages.txt'), 'utf8')).toBe(
      `results: ${path.join(folder, 'big.results.xlsx')}\n`,
    );
    expect(fs.existsSync(seenOut[0])).toBe(false);
    expect(fs.readdirSync(path.join(stateDir, 'out'))).toEqual([]);
    expect(fs.readdirSync(path.join(stateDir, 'work'))).toEqual([]);
  });

  it('a drop finished and moved by a watcher that died before updating its state is not imported again', async () => {
    const d = watchDir();
    const stateDir = path.join(d, '.supply-loader-watch');
    fs.mkdirSync(path.join(d, 'done', '20260101-000000-000-abcd'), { recursive: true });
    fs.mkdirSync(stateDir, { recursive: true });
    const drop0 = { drop: '20260101-000000-000-abcd', files: ['a.xlsx'], jobId: '20260101-000000-abcdef', takenAt: '' };
    fs.writeFileSync(
      path.join(stateDir, 'state.json'),
      JSON.stringify({ format: 'supply-loader/watch@1', drops: [drop0] }),
    );
    const importDrop: ImportDrop = () => Promise.reject(new Error('must not be called'));
    const r = await watchFolder({ dir: d, once: true, importDrop, stableMs: 60_000, pollMs: 5, onceWaitMs: 20 });
    expect(r).toEqual({ exitCode: 0, drops: [], notTaken: [] });
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, 'state.json'), 'utf8')).drops).toEqual([]);
  });

  it('the lock: refused while its pid lives; a lock of a dead pid is taken over with a notice', () => {
    const d = watchDir();
    const stateDir = path.join(d, '.supply-loader-watch');
    const release = acquireLock(stateDir);
    expect(() => acquireLock(stateDir)).toThrow(WatchLockedError);
    release();
    fs.writeFileSync(path.join(stateDir, 'lock'), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: '' }));
    const taken: number[] = [];
    const release2 = acquireLock(stateDir, (pid) => taken.push(pid));
    expect(taken).toEqual([2 ** 22 + 12345]);
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, 'lock'), 'utf8')).pid).toBe(process.pid);
    release2();
    expect(fs.existsSync(path.join(stateDir, 'lock'))).toBe(false);
  });

  it('the lock appears whole (no empty lock to read, no temp file left); an unreadable lock is held while fresh, taken over once old', () => {
    const d = watchDir();
    const stateDir = path.join(d, '.supply-loader-watch');
    const lock = path.join(stateDir, 'lock');
    const release = acquireLock(stateDir);
    expect(JSON.parse(fs.readFileSync(lock, 'utf8')).pid).toBe(process.pid);
    expect(fs.readdirSync(stateDir)).toEqual(['lock']);
    release();
    // A watcher that has created the lock but not yet written it: refused, not taken over.
    fs.writeFileSync(lock, '');
    expect(() => acquireLock(stateDir)).toThrow(/another watcher is starting on this folder/);
    expect(fs.readFileSync(lock, 'utf8')).toBe('');
    // Still unreadable long after: damaged, taken over.
    const taken: number[] = [];
    const release2 = acquireLock(stateDir, (pid) => taken.push(pid), Date.now() + 60_000);
    expect(taken).toEqual([0]);
    expect(JSON.parse(fs.readFileSync(lock, 'utf8')).pid).toBe(process.pid);
    expect(fs.readdirSync(stateDir)).toEqual(['lock']);
    release2();
  });

  it('"watching" is told only once the lock is held', async () => {
    const d = watchDir();
    const lock = path.join(d, '.supply-loader-watch', 'lock');
    const seen: string[] = [];
    const importDrop: ImportDrop = () => Promise.reject(new Error('must not be called'));
    await watchFolder({
      dir: d,
      once: true,
      importDrop,
      stableMs: 60_000,
      pollMs: 5,
      onceWaitMs: 20,
      onEvent: (e) => {
        if (e.type === 'watching') seen.push(`${e.inbox} ${JSON.parse(fs.readFileSync(lock, 'utf8')).pid}`);
      },
    });
    expect(seen).toEqual([`${path.join(d, 'inbox')} ${process.pid}`]);
  });
});
