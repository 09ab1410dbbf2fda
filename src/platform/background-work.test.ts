import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BackgroundWork } from "./background-work.js";
import { createLogger } from "./logger.js";

const silent = createLogger("silent");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("BackgroundWork", () => {
  it("waits at close for the work in flight, to its end, then starts nothing and fires no timer", async () => {
    const work = new BackgroundWork();
    const done: string[] = [];
    work.run("reload", async () => {
      await sleep(20);
      done.push("check");
      await sleep(20);
      done.push("reload");
      // Closing: what the work would start next is refused.
      if (!work.run("chained", async () => void done.push("chained"))) done.push("refused");
    });
    let ticks = 0;
    work.every("check", 5, async () => void ticks++);
    work.after("boundary", 5, async () => void done.push("boundary"));
    await work.close(5_000, silent);
    expect(done).toEqual(["check", "reload", "refused"]);
    expect(work.inFlightCount).toBe(0);
    const ticksAtClose = ticks;
    await sleep(30);
    expect(ticks).toBe(ticksAtClose);
    expect(work.run("late", async () => void done.push("late"))).toBe(false);
    expect(done).toEqual(["check", "reload", "refused"]);
  });

  it("gives up on what outlasts its bound, and logs it by name", async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, next) => (lines.push(String(chunk)), next()) });
    const work = new BackgroundWork();
    work.run("stuck load", () => new Promise(() => undefined));
    await work.close(20, createLogger("warn", sink as never));
    expect(work.inFlightCount).toBe(1);
    expect(lines.join("")).toContain("stuck load");
  });
});
