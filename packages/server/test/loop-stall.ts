import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface Stalls {
  /**
   * Longest gap between two ticks of a 5 ms timer during which the main thread was computing: the
   * gap counted only as far as its CPU time advanced in it. Being descheduled on a busy machine is
   * no stall of ours; a synchronous parse holding the loop is.
   */
  busyMs: number;
  /** Longest gap in wall time, whatever the cause (for the failure message). */
  wallMs: number;
  /** perf_hooks' event-loop delay, for the same purpose. */
  delayMaxMs: number;
}

/**
 * CPU time of the calling thread in ms: Linux's schedstat, in nanoseconds, for the main thread
 * alone (helper threads, GC ones included, do not hold the event loop); the process's CPU time
 * elsewhere.
 */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

/** Watches this process's event loop until `stop()`. */
export function watchStalls(): { stop(): Stalls } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let lastWall = performance.now();
  let lastCpu = threadCpuMs();
  let busyMs = 0;
  let wallMs = 0;
  const timer = setInterval(() => {
    const wall = performance.now();
    const cpu = threadCpuMs();
    const gap = wall - lastWall;
    const cpuMs = cpu - lastCpu;
    busyMs = Math.max(busyMs, Math.min(gap, cpuMs));
    wallMs = Math.max(wallMs, gap);
    lastWall = wall;
    lastCpu = cpu;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      delay.disable();
      return { busyMs, wallMs, delayMaxMs: delay.max / 1e6 };
    },
  };
}
