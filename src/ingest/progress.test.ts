import { describe, expect, it } from "vitest";
import { createLogger } from "../platform/logger.js";
import { ProgressReporter, formatDuration } from "./progress.js";

describe("ProgressReporter", () => {
  it("redraws one line on a terminal: fills, fills/s, position and ETA", () => {
    const written: string[] = [];
    let now = 0;
    const progress = new ProgressReporter(
      { isTTY: true, write: (t) => written.push(t) },
      createLogger("silent"),
      () => now,
    );
    progress.update({ source: "chain-logs", newFills: 1_000, position: 1_000, target: 11_000, unit: "block" });
    now = 2_000;
    progress.update({ source: "chain-logs", newFills: 50_000, position: 3_000, target: 11_000, unit: "block" });
    expect(written.at(-1)).toBe("\r\x1b[2Kfills 51,000 | 25,000 fills/s | block 3,000/11,000 | ETA 8s");
    progress.finish();
    expect(written.at(-1)).toBe("\n");
  });

  it("logs a plain line at most every interval otherwise", () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger("info", {
      write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>),
    });
    let now = 0;
    const progress = new ProgressReporter({ isTTY: false, write: () => undefined }, logger, () => now, 10_000);
    for (let i = 1; i <= 30; i++) {
      now = i * 1_000;
      progress.update({ source: "data-api-trades", newFills: 100 });
    }
    expect(lines.map((l) => [l.msg, l.fills, l.fillsPerSecond])).toEqual([
      ["ingest progress", 1_000, 100],
      ["ingest progress", 2_000, 100],
      ["ingest progress", 3_000, 100],
    ]);
  });

  it("formats durations", () => {
    expect([
      formatDuration(5),
      formatDuration(75),
      formatDuration(3 * 3600 + 7 * 60),
      formatDuration(Number.NaN),
    ]).toEqual(["5s", "1m15s", "3h07m", "?"]);
  });
});
