/**
 * CPU time of child processes, for benchmarks run on a shared machine: other load stretches wall
 * time, but barely moves the CPU seconds a run itself needs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** User + system CPU seconds of a live process so far, its ended threads included (Linux /proc; 0 elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface TimedRun {
  seconds: number;
  /** CPU seconds, sampled every 50 ms until the process exits (the last few milliseconds are missed). */
  cpu: number;
  status: number | null;
  stderr: string;
}

/** Runs a command to its end, timing it and sampling its CPU seconds. */
export function timedRun(command: string, args: string[], cwd: string): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let cpu = 0;
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-1 << 16);
    });
    const sample = setInterval(() => {
      cpu = Math.max(cpu, cpuSeconds(child.pid));
    }, 50);
    child.on('error', (err) => {
      clearInterval(sample);
      reject(err);
    });
    child.on('close', (status) => {
      clearInterval(sample);
      resolve({ seconds: (performance.now() - t0) / 1000, cpu, status, stderr });
    });
  });
}
