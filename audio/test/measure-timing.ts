/** Timing helpers of the measurement scripts (scripts run by hand, not tests: timings depend on the machine). */

function stats(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  return `first ${times[0]?.toFixed(1)} ms, median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${at(0)} ms`;
}

/**
 * Wall time and this process's CPU time of `runs` sequential runs: on a shared, loaded machine the CPU
 * time is the steadier figure.
 *
 * @example
 * console.log(await timeAsync(30, () => analyze(bytes)));
 */
export async function timeAsync(runs: number, run: () => Promise<unknown>): Promise<string> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - start);
  }
  return `wall ${stats(wall)}\n                      cpu  ${stats(cpu)}`;
}
