/**
 * The process guard: a connection's error that escaped is logged and counted and the process goes on; any other
 * error leaves state unknown and the process exits with code 1.
 */
import { connect, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { metrics } from "../platform/metrics.js";
import { handleEscapedError, isConnectionError } from "./process-guard.js";

/** A real socket error: a client whose peer resets the connection under a write. */
async function resetError(): Promise<Error> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const error = await new Promise<Error>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("hello"));
    socket.once("error", resolve);
  });
  server.close();
  return error;
}

const escapedCount = async (origin: string) =>
  (await metrics.escapedErrors.get()).values.find((v) => v.labels.origin === origin)?.value ?? 0;

describe("the process guard", () => {
  it("tells a connection's errors from errors that leave state unknown", async () => {
    expect(isConnectionError(await resetError())).toBe(true);
    const coded = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ["EPIPE", "ERR_STREAM_DESTROYED", "HPE_INVALID_METHOD", "WS_ERR_INVALID_OPCODE", "ABORT_ERR"])
      expect(isConnectionError(coded(code)), code).toBe(true);
    expect(isConnectionError(new DOMException("stopped", "AbortError"))).toBe(true);
    for (const error of [
      new TypeError("cannot read properties of undefined"),
      new RangeError("Maximum call stack size exceeded"),
      coded("SQLITE_CORRUPT"),
      coded("ENOSPC"),
      "a thrown string",
      null,
      undefined,
    ])
      expect(isConnectionError(error), String(error)).toBe(false);
  });

  it("logs and counts a connection's error and goes on; exits with 1 on anything else", async () => {
    const lines: Array<{ level: string; message: string }> = [];
    const logger = {
      warn: (_fields: unknown, message: string) => lines.push({ level: "warn", message }),
      fatal: (_fields: unknown, message: string) => lines.push({ level: "fatal", message }),
    };
    const exits: number[] = [];
    const before = await escapedCount("uncaughtException");
    handleEscapedError(await resetError(), "uncaughtException", logger as never, (code) => exits.push(code));
    expect(exits).toEqual([]);
    expect(lines.map((l) => l.level)).toEqual(["warn"]);
    expect(await escapedCount("uncaughtException")).toBe(before + 1);

    handleEscapedError(new TypeError("x is undefined"), "unhandledRejection", logger as never, (code) =>
      exits.push(code),
    );
    expect(exits).toEqual([1]);
    expect(lines.map((l) => l.level)).toEqual(["warn", "fatal"]);
  });
});
