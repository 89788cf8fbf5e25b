import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks: all of it, and what the hypervisor gave elsewhere. */
export interface CpuTimes {
  readonly total: number;
  readonly steal: number;
}

/**
 * The aggregate `cpu` line of /proc/stat (Linux); undefined elsewhere. Steal is the time a virtual
 * CPU was ready to run but the host ran something else: on a shared VM it slows every measurement,
 * and it slows a load generator and a server (two busy processes) more than a single one (Prism).
 */
export function cpuTimes(): CpuTimes | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    if (line.startsWith('cpu ') === false || fields.length < 8 || fields.some(Number.isNaN)) return undefined;
    // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is inside user.
    const total = fields.slice(0, 8).reduce((sum, ticks) => sum + ticks, 0);
    return { total, steal: fields[7] as number };
  } catch {
    return undefined;
  }
}

/** The share of CPU time stolen between two readings, in percent; undefined without readings. */
export function stealPercent(from: CpuTimes | undefined, to: CpuTimes | undefined): number | undefined {
  if (!from || !to || to.total <= from.total) return undefined;
  return (100 * (to.steal - from.steal)) / (to.total - from.total);
}
