/**
 * One operation measured in a fresh service over a world's store (bench/api.bench.ts, bench/growth.bench.ts):
 * the first request, then `cold` more to wallets or markets not asked before, a discarded warm-up, the throughput
 * of a closed loop (with the service's CPU time per request), requests at the operation's fixed rate (p50, p99),
 * and the service's peak resident memory.
 */
import { load, startService, type LoadFigures, type Target } from "./http-load.js";
import { FellBehind, openLoop, type OpenLoopFigures } from "./open-loop.js";
import type { BenchOperation } from "./operations.js";
import { peakRssMb, probe } from "./probe.js";
import { cpuMicros } from "./process-cpu.js";

export interface RunSettings {
  /** Each run's length. */
  readonly seconds: number;
  /** The fixed-rate run's length, when not `seconds`: its p99 is the rate times this over 100th slowest request. */
  readonly fixedSeconds?: number;
  /** First requests timed after the first. */
  readonly cold: number;
  /** The discarded closed loop before the throughput run (default WARM_UP_SECONDS). */
  readonly warmUpSeconds?: number;
}

export const CONNECTIONS = 10;
export const WARM_UP_SECONDS = 1;
/** The fixed rate runs only where it is at most this share of the operation's throughput (else it overloads it). */
const OVERLOAD_SHARE = 0.8;

/** The fixed-rate figures, `undefined` where the rate would overload the operation, "behind" where it did anyway. */
export type FixedFigures = OpenLoopFigures | "behind" | undefined;

export async function fixedRun(
  base: string | readonly string[],
  target: Target,
  rate: number,
  max: LoadFigures,
  seconds: number,
): Promise<FixedFigures> {
  if (rate > OVERLOAD_SHARE * max.rps) return undefined;
  try {
    return await openLoop(base, { ...target, rate, seconds });
  } catch (error) {
    // A busy machine can leave the service far behind a rate its closed loop kept up with: say so, go on.
    if (error instanceof FellBehind) return "behind";
    throw error;
  }
}

export const fixedFigures = (fixed: FixedFigures) => (typeof fixed === "object" ? fixed : undefined);

export interface OperationFigures {
  startMs: number;
  first: { ms: number; status: number; wireBytes: number; jsonBytes: number };
  cold: number[];
  max: LoadFigures;
  /** The service's CPU time per request over the throughput run, µs. */
  cpuPerRequestUs: number;
  rate: number;
  fixed: FixedFigures;
  rssMb: number | undefined;
}

export async function measureOperation(
  world: { readonly dataDir: string; readonly end: number },
  operation: BenchOperation,
  settings: RunSettings,
): Promise<OperationFigures> {
  const started = performance.now();
  const service = await startService(world.dataDir, world.end);
  const startMs = performance.now() - started;
  try {
    const options = { method: operation.method, headers: operation.headers, body: operation.body };
    const first = await probe(service.url, operation.paths[0]!, options);
    const cold: number[] = [];
    for (let i = 1; i <= Math.min(settings.cold, operation.paths.length - 1); i++)
      cold.push((await probe(service.url, operation.paths[i]!, options)).ms);
    await load(service.url, operation, {
      seconds: settings.warmUpSeconds ?? WARM_UP_SECONDS,
      connections: CONNECTIONS,
    });
    const cpuBefore = cpuMicros(service.pid);
    const max = await load(service.url, operation, { seconds: settings.seconds, connections: CONNECTIONS });
    const cpuPerRequestUs = (cpuMicros(service.pid) - cpuBefore) / (max.rps * settings.seconds);
    const fixed = await fixedRun(
      service.url,
      operation,
      operation.rate,
      max,
      settings.fixedSeconds ?? settings.seconds,
    );
    return {
      startMs,
      first,
      cold,
      max,
      cpuPerRequestUs,
      rate: operation.rate,
      fixed,
      rssMb: peakRssMb(service.pid),
    };
  } finally {
    await service.close();
  }
}
