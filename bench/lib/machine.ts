/** Describes the machine a benchmark ran on, for docs/BENCHMARKS.md. */
import os from 'node:os';

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const mem = (os.totalmem() / 1024 ** 3).toFixed(0);
  return `${os.cpus().length} × ${cpu.trim()}, ${mem} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

export const today = (): string => new Date().toISOString().slice(0, 10);
