/**
 * What the kernel says about a process (Linux /proc): its CPU time and resident memory, read from
 * outside so a server's figures include every thread (main, libuv pool, GC helpers) and nothing of
 * the load generator's; and CPU pinning with taskset, so server and loader do not share a core.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux here). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Cumulative CPU time (user + system, all threads) of the process, in microseconds. */
export function cpuMicrosOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1e6) / TICKS_PER_SECOND;
}

/** Resident set size of the process, in MB (10^6 bytes). */
export function rssMbOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match ? (Number(match[1]) * 1024) / 1e6 : Number.NaN;
}

/** The CPUs the server and the load generator run on: apart when there are two or more. */
export function cpuPlan(): { server: string; loader: string; pinned: boolean } {
  const count = os.availableParallelism();
  if (count < 2 || !hasTaskset()) return { server: '', loader: '', pinned: false };
  return { server: '0', loader: String(count - 1), pinned: true };
}

let tasksetChecked: boolean | undefined;
function hasTaskset(): boolean {
  if (tasksetChecked === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      tasksetChecked = true;
    } catch {
      tasksetChecked = false;
    }
  }
  return tasksetChecked;
}

/** Pins every thread of the process (and the threads it starts later) to `cpus`; no-op for ''. */
export function pin(pid: number, cpus: string): void {
  if (!cpus) return;
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
