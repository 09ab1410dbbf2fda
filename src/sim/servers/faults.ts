/**
 * The venue's misbehaviour, switchable and off by default: 429 rate limiting, occasional 5xx, ArcGIS
 * throttling as an error object inside HTTP 200, dropped and lossy RTDS connections. Each kind of fault draws
 * from its own seeded stream in request order, so a sequential client meets the same faults on every run.
 * (The offset ceiling is not a fault: it is always on, as on the venue.)
 */
import { Rng, seedWords } from "../world/random.js";

export interface FaultOptions {
  /** Seed of the fault streams (default: the world's seed). */
  seed?: number | string;
  /** Share of HTTP requests answered 429 with Retry-After. */
  rateLimit?: number;
  /** Share of HTTP requests answered 500, 502 or 503. */
  serverError?: number;
  /** Share of ArcGIS requests answered HTTP 200 with `{"error":{"code":429,...}}`. */
  arcgisThrottle?: number;
  /** Chance per RTDS frame that the server drops the connection instead of sending it. */
  rtdsDisconnect?: number;
  /** Chance per RTDS trade message that it is silently lost. */
  rtdsLoss?: number;
  /** Retry-After of a 429, seconds (default 1). */
  retryAfterSeconds?: number;
}

export type FaultKind = "rateLimit" | "serverError" | "arcgisThrottle" | "rtdsDisconnect" | "rtdsLoss";

const KINDS: readonly FaultKind[] = ["rateLimit", "serverError", "arcgisThrottle", "rtdsDisconnect", "rtdsLoss"];

/** CLI spelling of each fault rate (`--faults rate-limit=0.05,server-error=0.01`). */
const CLI_NAMES: Record<string, FaultKind> = {
  "rate-limit": "rateLimit",
  "server-error": "serverError",
  "arcgis-throttle": "arcgisThrottle",
  "rtds-disconnect": "rtdsDisconnect",
  "rtds-loss": "rtdsLoss",
};

/** What `--faults on` switches on: a venue having a bad day, still usable by a client that retries. */
export const TYPICAL_FAULTS: FaultOptions = {
  rateLimit: 0.03,
  serverError: 0.01,
  arcgisThrottle: 0.05,
  rtdsDisconnect: 0.002,
  rtdsLoss: 0.01,
};

export class Faults {
  private readonly streams: Record<FaultKind, Rng>;
  readonly retryAfterSeconds: number;

  constructor(
    private readonly options: FaultOptions,
    worldSeed: number | string,
  ) {
    const key = seedWords(options.seed ?? worldSeed);
    this.streams = Object.fromEntries(KINDS.map((kind) => [kind, Rng.derive(key, `fault-${kind}`)])) as Record<
      FaultKind,
      Rng
    >;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
    for (const kind of KINDS) {
      const rate = options[kind] ?? 0;
      if (!(rate >= 0 && rate <= 1)) throw new RangeError(`fault rate ${kind} must be in [0, 1], got ${rate}`);
    }
  }

  /** Whether this occurrence of `kind` misbehaves. A rate of zero draws nothing, so it never shifts the others. */
  strikes(kind: FaultKind): boolean {
    const rate = this.options[kind] ?? 0;
    return rate > 0 && this.streams[kind].next() < rate;
  }

  /** The status of an injected server error. */
  serverErrorStatus(): number {
    return [500, 502, 503][this.streams.serverError.int(3)]!;
  }
}

/** `on`, `off`, or comma-separated `name=rate` pairs (names: rate-limit, server-error, arcgis-throttle, rtds-disconnect, rtds-loss, retry-after). */
export function parseFaults(spec: string): FaultOptions {
  const text = spec.trim();
  if (text === "" || text === "off" || text === "none") return {};
  if (text === "on") return { ...TYPICAL_FAULTS };
  const options: FaultOptions = {};
  for (const part of text.split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    const number = Number(value);
    if (!name || value === undefined || !Number.isFinite(number))
      throw new RangeError(`bad fault "${part}": expected name=number`);
    if (name === "retry-after") options.retryAfterSeconds = number;
    else if (CLI_NAMES[name]) options[CLI_NAMES[name]] = number;
    else
      throw new RangeError(`unknown fault "${name}" (known: ${[...Object.keys(CLI_NAMES), "retry-after"].join(", ")})`);
  }
  return options;
}
