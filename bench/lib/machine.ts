/** Describes the machine a benchmark ran on, for docs/BENCHMARKS.md. */
import os from 'node:os';

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const mem = (os.totalmem() / 1024 ** 3).toFixed(0);
  return `${os.cpus().length} × ${cpu.trim()}, ${mem} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * The machine's load average seen during a benchmark: this machine is shared
 * (other engineers' tests run beside the benchmarks), so every section that
 * measures throughput or latency states the load it ran under.
 */
export class LoadWatch {
  private readonly oneMinute: number[] = [];

  constructor() {
    this.sample();
  }

  /** Takes the 1-minute load average now (call it between the runs of a benchmark). */
  sample(): void {
    this.oneMinute.push(os.loadavg()[0]);
  }

  /** "load average 2.1–3.4 (1 min, sampled during the run), 2.8 / 2.5 (5 / 15 min) at the end" */
  line(): string {
    this.sample();
    const [, five, fifteen] = os.loadavg();
    const lo = Math.min(...this.oneMinute).toFixed(1);
    const hi = Math.max(...this.oneMinute).toFixed(1);
    return `load average ${lo === hi ? lo : `${lo}–${hi}`} (1 min, sampled during the run), ${five.toFixed(1)} / ${fifteen.toFixed(1)} (5 / 15 min) at the end`;
  }
}
