/**
 * Progress of `pelagic ingest`: on a terminal, one line redrawn in place (fills stored, fills/s over the last
 * seconds, where the fills source stands, ETA); otherwise a plain log line every `logEveryMs`.
 */
import type { Logger } from "../platform/logger.js";
import type { ProgressEvent } from "./context.js";

export interface ProgressOutput {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

interface Sample {
  readonly ms: number;
  readonly fills: number;
  readonly position: number | undefined;
}

const WINDOW_MS = 10_000;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export class ProgressReporter {
  private fills = 0;
  private latest: ProgressEvent | null = null;
  private samples: Sample[] = [];
  private lastLogMs = 0;
  private drawn = false;

  constructor(
    private readonly output: ProgressOutput,
    private readonly logger: Logger,
    private readonly nowMs: () => number = Date.now,
    private readonly logEveryMs = 10_000,
  ) {}

  update(event: ProgressEvent): void {
    this.fills += event.newFills;
    if (event.position !== undefined) this.latest = event;
    const now = this.nowMs();
    this.samples.push({ ms: now, fills: this.fills, position: event.position });
    while (this.samples.length > 2 && now - (this.samples[0] as Sample).ms > WINDOW_MS) this.samples.shift();
    if (this.output.isTTY) {
      this.output.write(`\r\x1b[2K${this.line()}`);
      this.drawn = true;
    } else if (now - this.lastLogMs >= this.logEveryMs) {
      this.lastLogMs = now;
      this.logger.info(this.figures(), "ingest progress");
    }
  }

  /** Ends the redrawn line (before other output, or at the end). */
  finish(): void {
    if (this.drawn) this.output.write("\n");
    this.drawn = false;
  }

  figures(): {
    fills: number;
    fillsPerSecond: number;
    source?: string;
    position?: number;
    target?: number;
    unit?: string;
    etaSeconds?: number;
  } {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    const seconds = first && last ? (last.ms - first.ms) / 1000 : 0;
    const fillsPerSecond = seconds > 0 && first && last ? Math.round((last.fills - first.fills) / seconds) : 0;
    const event = this.latest;
    if (!event || event.position === undefined || event.target === undefined)
      return { fills: this.fills, fillsPerSecond };
    const firstPosition = this.samples.find((s) => s.position !== undefined)?.position;
    const advanced = firstPosition === undefined ? 0 : event.position - firstPosition;
    const etaSeconds = advanced > 0 && seconds > 0 ? ((event.target - event.position) * seconds) / advanced : undefined;
    return {
      fills: this.fills,
      fillsPerSecond,
      source: event.source,
      position: event.position,
      target: event.target,
      unit: event.unit,
      etaSeconds,
    };
  }

  line(): string {
    const f = this.figures();
    const parts = [`fills ${f.fills.toLocaleString("en-US")}`, `${f.fillsPerSecond.toLocaleString("en-US")} fills/s`];
    if (f.position !== undefined && f.target !== undefined) {
      parts.push(`${f.unit ?? "at"} ${f.position.toLocaleString("en-US")}/${f.target.toLocaleString("en-US")}`);
      parts.push(`ETA ${f.etaSeconds === undefined ? "?" : formatDuration(f.etaSeconds)}`);
    }
    return parts.join(" | ");
  }
}
