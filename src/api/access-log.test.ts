import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { openTestApp } from "../../test/support/app.js";
import { access } from "./access.js";

async function linesOf(env: Record<string, string>, url: string) {
  const lines: Array<Record<string, unknown>> = [];
  const t = await openTestApp({
    env,
    logSink: new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(chunk.toString())), done()) }),
    register: async (app) => {
      app.get("/test/answer", { config: { access: access.public } }, async () => ({ ok: true }));
    },
  });
  try {
    await t.app.inject({ method: "GET", url });
    await t.app.inject({ method: "GET", url: "/no/such/route" });
  } finally {
    await t.close();
  }
  return lines.filter((l) => l.msg === "request" || l.msg === "slow request");
}

describe("the access log", () => {
  it("writes one line per request at debug (not info), with method, url, status and time", async () => {
    const lines = await linesOf({}, "/test/answer?unknown=1");
    expect(lines.map((l) => [l.level, l.method, l.url, l.status])).toEqual([
      [20, "GET", "/test/answer?unknown=1", 422],
      [20, "GET", "/no/such/route", 404],
    ]);
    expect(typeof lines[0]!.ms).toBe("number");
  });

  it("writes requests slower than SLOW_REQUEST_MS at warn", async () => {
    const lines = await linesOf({ SLOW_REQUEST_MS: "0" }, "/test/answer");
    expect(lines.length).toBe(2);
    for (const line of lines) {
      expect(line.level).toBe(40);
      expect(line.msg).toBe("slow request");
    }
  });
});
