/** Test support: a manual clock whose sleep returns at once and moves the clock, recording each pause. */
import { ManualClock } from "../../platform/clock.js";
import type { Sleep } from "../pacing.js";

export interface FakeTime {
  readonly clock: ManualClock;
  readonly sleep: Sleep;
  /** Every pause asked for, in order. */
  readonly sleeps: number[];
}

export function fakeTime(startMs = Date.UTC(2026, 4, 1)): FakeTime {
  const clock = new ManualClock(startMs);
  const sleeps: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    sleeps.push(ms);
    clock.advance(ms);
  };
  return { clock, sleep, sleeps };
}
