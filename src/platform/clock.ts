/** The one source of "now". Production uses the system clock; tests set a manual one. */
export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
  /** Whole unix seconds. */
  now(): number;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  now: () => Math.floor(Date.now() / 1000),
};

export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 10, 21)) {}
  nowMs(): number {
    return this.ms;
  }
  now(): number {
    return Math.floor(this.ms / 1000);
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
