/**
 * The peak RSS of a process tree on Linux: /proc/<pid>/status of the process and each of its descendants polled
 * (the sum of VmRSS over the tree), and the root's VmHWM (the kernel's own high-water mark) read at the end, the
 * larger of the two taken. For a process that was running before the interval measured (an app's server), the
 * root's high-water mark is reset first (`5` written to /proc/<pid>/clear_refs), so that only the interval counts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

function kib(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : 0;
}

/** The pid and every descendant of it (Linux /proc). */
export function treePids(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        for (const c of readFileSync(`/proc/${out[i]}/task/${t}/children`, 'utf8').split(/\s+/).filter(Boolean))
          out.push(Number(c));
      } catch {
        /* gone */
      }
    }
  }
  return out;
}

export interface TreePeak {
  /** the sum of VmRSS over the tree at the start, MiB */
  start_mib: number;
  /** the largest sum of VmRSS over the tree seen by the polls, MiB */
  peak_tree_rss_mib: number;
  /** the root's VmHWM at the end (since the reset, when there was one), MiB */
  root_hwm_mib: number;
  /** the larger of the two, MiB */
  peak_mib: number;
  /** whether the root's high-water mark was reset at the start */
  hwm_reset: boolean;
}

export interface TreeWatch {
  /** One more poll now (call it at the end of the interval, before stop). */
  poll(): void;
  stop(): TreePeak;
}

/** Poll a process tree's RSS every `everyMs` until stop(); with `resetHwm`, the root's VmHWM starts from now. */
export function watchTree(pid: number, o: { everyMs?: number; resetHwm?: boolean } = {}): TreeWatch {
  let hwmReset = false;
  if (o.resetHwm) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      hwmReset = true;
    } catch {
      /* an older kernel, or not allowed: the polls alone */
    }
  }
  let peakTree = 0;
  let hwm = 0;
  const poll = () => {
    let sum = 0;
    for (const p of treePids(pid)) {
      try {
        const st = readFileSync(`/proc/${p}/status`, 'utf8');
        sum += kib(st, 'VmRSS');
        if (p === pid) hwm = Math.max(hwm, kib(st, 'VmHWM'));
      } catch {
        /* exited */
      }
    }
    peakTree = Math.max(peakTree, sum);
  };
  poll();
  const start = peakTree;
  const timer = setInterval(poll, o.everyMs ?? 50);
  return {
    poll,
    stop() {
      clearInterval(timer);
      return {
        start_mib: Math.round(start / 1024),
        peak_tree_rss_mib: Math.round(peakTree / 1024),
        root_hwm_mib: Math.round(hwm / 1024),
        peak_mib: Math.round(Math.max(peakTree, hwm) / 1024),
        hwm_reset: hwmReset,
      };
    },
  };
}
