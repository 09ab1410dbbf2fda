import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { follow, runPelagic, spawnPelagic, type Running } from "./support/cli.js";

const REPOSITORY = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pelagic-cli-"));
const running: Running[] = [];
afterAll(async () => {
  for (const run of running)
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGTERM");
  await Promise.all(running.map((run) => run.exited));
  rmSync(dir, { recursive: true, force: true });
});

describe("bin/pelagic.js", () => {
  it("answers --help with the command's flags (exit 0), and an unknown flag with one line and exit 2", () => {
    const help = runPelagic(["sim", "--help"], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^ {2}--sim-port <port> /m);
    const wrong = runPelagic(["sim", "--bogus"], {});
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe("pelagic: unknown flag --bogus (see pelagic sim --help)\n");
  });

  it("without a command prints the usage and exits 2", () => {
    const bare = runPelagic([], {});
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("usage: pelagic <command>");
    expect(bare.stderr).toMatch(/^ {2}serve +\S/m);
  });
});

describe("pelagic sim's settings", () => {
  it("point a pelagic serve at the simulated venue when used as its output says", async () => {
    const sim = spawnPelagic(["sim", "--sim-port", "0", "--fills", "2000", "--wallets", "50", "--markets", "20"], {
      HOST: "127.0.0.1",
    });
    running.push(sim);
    const settingsPrinted = () =>
      sim.lines.filter((line) => typeof line === "string" && /^[A-Z_]+=\S/.test(line)).length >= 6;
    for (let waited = 0; !settingsPrinted(); waited += 100) {
      if (waited > 60_000 || sim.child.exitCode !== null)
        throw new Error(`no settings from pelagic sim; stderr: ${sim.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const output = sim.lines.map(String);
    // The output names the file to save it to and the command that reads it.
    const saved = output.map((line) => /^#.*> (\S+?) &/.exec(line)?.[1]).find(Boolean);
    const command = output.find((line) => /^#\s+env .* serve$/.test(line))?.replace(/^#\s+/, "");
    expect(saved).toBeDefined();
    expect(command).toBeDefined();
    const file = join(dir, saved as string);
    writeFileSync(file, `${output.join("\n")}\n`);

    // As written, run from the repository's root, but with the saved file's full path and a port and store of its own.
    const shell = `${(command as string).replaceAll(saved as string, file)} --port 0 --data-dir ${join(dir, "data")} --log-level info`;
    const serve = follow(
      spawn("sh", ["-c", `exec ${shell}`], {
        cwd: REPOSITORY,
        env: { ...process.env, DATABASE_URL: "", REDIS_URL: "" },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    running.push(serve);
    const url = (await serve.waitFor((line) => line.msg === "pelagic serving", 60_000)).url as string;
    // Ready means every ingest source caught up with a venue: the simulated one, as the settings say.
    let health: { status?: string; ready?: boolean } = {};
    for (let waited = 0; !health.ready && waited < 60_000; waited += 250) {
      const res = await fetch(`${url}/api/v1/health`);
      expect(res.status).toBe(200);
      health = (await res.json()) as typeof health;
      if (!health.ready) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(health).toMatchObject({ status: "ok", ready: true });
  }, 150_000);
});
