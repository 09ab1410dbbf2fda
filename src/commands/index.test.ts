import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { flagToEnv } from "../config/index.js";
import { COMMAND_NAMES, loadCommands, main, parseCommandLine } from "./index.js";
import type { CommandSpec } from "./spec.js";

/** Runs `pelagic <argv>` in this process: its exit code and what it printed on each stream. */
async function pelagic(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void out.push(parts.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => void err.push(parts.join(" ")));
  try {
    const code = await main(argv);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const COMMANDS = await loadCommands();

function spec(name: string): CommandSpec {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return command;
}

/** The flags a newcomer needs to find in each command's help (README, issue 21). */
const EXPECTED_FLAGS: Record<string, string[]> = {
  serve: ["--role", "--port", "--host"],
  ingest: ["--until-caught-up", "--ingest-start"],
  settings: [],
  keys: ["--account", "--plan", "--key", "--rate-limit"],
  rebuild: [],
  migrate: [],
  sim: [
    "--seed",
    "--markets",
    "--wallets",
    "--fills",
    "--days",
    "--end",
    "--live-rate",
    "--faults",
    "--isw-data",
    "--isw-step",
    "--live-from",
    "--stats",
    "--sim-port",
  ],
  demo: [
    "--seed",
    "--markets",
    "--wallets",
    "--fills",
    "--days",
    "--end",
    "--live-rate",
    "--faults",
    "--sim-port",
    "--port",
  ],
  mcp: ["--pelagic-url", "--pelagic-api-key"],
};

/** The rows of a help's flags section: the flag, and the rest of its text up to the next flag. */
function flagRows(help: string): Map<string, string> {
  const section = help.split("\n\nflags:\n")[1]?.split("\n\n")[0] ?? "";
  const rows = new Map<string, string>();
  let current = "";
  for (const line of section.split("\n")) {
    const flag = /^ {2}(?:-h, )?(--[a-z-]+)/.exec(line)?.[1];
    if (flag) rows.set((current = flag), line);
    else if (current) rows.set(current, `${rows.get(current)} ${line.trim()}`);
  }
  return rows;
}

describe("pelagic with no command, --help, help", () => {
  it("lists every command; exit 0 when asked, 2 (usage on stderr) when no command is given", async () => {
    const asked = await pelagic("--help");
    expect(asked.code).toBe(0);
    expect(COMMANDS.map((c) => c.name)).toEqual(COMMAND_NAMES);
    for (const name of Object.keys(EXPECTED_FLAGS)) expect(asked.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    expect((await pelagic("help")).stdout).toBe(asked.stdout);
    expect((await pelagic("-h")).stdout).toBe(asked.stdout);

    const bare = await pelagic();
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toBe(asked.stdout);
  });

  it("refuses an unknown command, also as a help topic", async () => {
    for (const argv of [["launch"], ["help", "launch"], ["constructor"]]) {
      const run = await pelagic(...argv);
      expect(run.code).toBe(2);
      expect(run.stderr.split("\n")[0]).toBe(`pelagic: unknown command "${argv.at(-1)}"`);
    }
  });
});

describe.each(Object.keys(EXPECTED_FLAGS))("pelagic %s", (name) => {
  it("--help, -h and help <command> print what it does, its flags, the settings pointer and examples (exit 0)", async () => {
    const help = await pelagic(name, "--help");
    expect(help.code).toBe(0);
    expect(help.stderr).toBe("");
    const [title, blank, description] = help.stdout.split("\n");
    expect(title).toMatch(new RegExp(`^pelagic ${name}: \\S`));
    expect(blank).toBe("");
    expect(description?.length).toBeGreaterThan(20);
    const rows = flagRows(help.stdout);
    for (const flag of [...EXPECTED_FLAGS[name]!, "--help"]) expect(rows.get(flag), flag).toBeDefined();
    expect(help.stdout).toContain("pelagic settings lists them");
    const examples = help.stdout.split("\nexamples:\n")[1]?.split("\n") ?? [];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(example).toMatch(new RegExp(`pelagic ${name}\\b`));

    expect((await pelagic(name, "-h")).stdout).toBe(help.stdout);
    expect((await pelagic("help", name)).stdout).toBe(help.stdout);
    // Help wins over anything else on the line, a wrong flag included.
    expect((await pelagic(name, "--bogus", "--help")).stdout).toBe(help.stdout);
  });

  it("accepts every flag its help lists, and applies the defaults its help shows", async () => {
    const rows = flagRows((await pelagic(name, "--help")).stdout);
    rows.delete("--help");
    const absent = parseCommandLine([], spec(name));
    for (const [flag, row] of rows) {
      const takesValue = new RegExp(`^ {2}${flag} \\S`).test(row);
      const line = parseCommandLine(takesValue ? [flag, "7"] : [flag], spec(name));
      expect(line.flags[flag.slice(2)] ?? line.settings[flagToEnv(flag)], flag).toBe(takesValue ? "7" : "true");
      const applied = absent.flags[flag.slice(2)];
      if (applied !== undefined) expect(row, flag).toContain(`default: ${applied})`);
    }
  });

  it("refuses an unknown flag with exit 2 and one line naming it and the command's help", async () => {
    const run = await pelagic(name, "--bogus", "1");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`pelagic: unknown flag --bogus (see pelagic ${name} --help)`);
  });
});

describe("keys help", () => {
  it("lists each action with the flags it takes", async () => {
    const help = (await pelagic("keys", "--help")).stdout;
    const actions = help.split("\nactions:\n")[1]?.split("\n\n")[0] ?? "";
    expect(actions).toMatch(/^ {2}pelagic keys create .*--account .*--plan .*--rate-limit/m);
    expect(actions).toMatch(/^ {2}pelagic keys rotate .*--key/m);
    expect(actions).toMatch(/^ {2}pelagic keys revoke .*--key/m);
    expect(actions).toMatch(/^ {2}pelagic keys list .*--account/m);
    expect(actions).toMatch(/^ {2}pelagic keys plan .*--account .*--plan/m);
  });
});

describe("parseCommandLine", () => {
  const sim = spec("sim");

  it("takes settings as flags by their environment name, in both spellings", () => {
    const line = parseCommandLine(["--data-dir", "/tmp/x", "--log-level=debug", "--fills", "20"], sim);
    expect(line.settings).toEqual({ DATA_DIR: "/tmp/x", LOG_LEVEL: "debug" });
    expect(line.flags.fills).toBe("20");
  });

  it("hands a command flag that is a setting to the configuration (serve --role)", () => {
    const line = parseCommandLine(["--role", "api"], spec("serve"));
    expect(line.settings).toEqual({ ROLE: "api" });
    expect(line.flags.role).toBeUndefined();
  });

  it("takes a value that starts with a dash, and switches without one", () => {
    const line = parseCommandLine(["--seed", "-5", "--stats"], sim);
    expect(line.flags.seed).toBe("-5");
    expect(line.flags.stats).toBe("true");
    expect(parseCommandLine([], sim).flags.stats).toBeUndefined();
  });

  it("applies a flag's default only when the flag is absent", () => {
    expect(parseCommandLine([], sim).flags["sim-port"]).toBe("8090");
    expect(parseCommandLine(["--sim-port", "0"], sim).flags["sim-port"]).toBe("0");
    expect(parseCommandLine([], spec("demo")).flags["sim-port"]).toBe("0");
  });

  it("refuses, naming it: a missing value, an unknown flag (an Object property's name too), a word a command does not take", () => {
    expect(() => parseCommandLine(["--markets"], sim)).toThrow("--markets needs a value");
    expect(() => parseCommandLine(["--port"], sim)).toThrow("--port needs a value");
    expect(() => parseCommandLine(["-x"], sim)).toThrow("unknown flag -x");
    expect(() => parseCommandLine(["--constructor", "1"], sim)).toThrow("unknown flag --constructor");
    expect(() => parseCommandLine(["extra"], sim)).toThrow("unexpected argument extra");
    expect(parseCommandLine(["create", "--plan", "free"], spec("keys")).positionals).toEqual(["create"]);
    expect(() => parseCommandLine(["create", "twice"], spec("keys"))).toThrow("unexpected argument twice");
  });
});

describe("keys without a known action", () => {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-keys-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("exits 2 pointing at the help, before opening (and creating) the store", async () => {
    for (const argv of [["keys"], ["keys", "renew"]]) {
      const run = await pelagic(...argv, "--data-dir", join(dir, "store"));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^pelagic keys: .*create, plan, rotate, revoke, list.* \(see pelagic keys --help\)$/);
    }
    expect(existsSync(join(dir, "store"))).toBe(false);
  });
});

describe("keys refusing junk", () => {
  const dir = mkdtempSync(join(tmpdir(), "pelagic-keys-junk-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const keys = (...argv: string[]) => pelagic("keys", ...argv, "--data-dir", dir, "--database-url", "");

  it("refuses a plan change through create, a control character in a name and an absurd limit, with one line and exit 2", async () => {
    expect((await keys("create", "--account", "acme", "--plan", "premium")).code).toBe(0);
    const downgrade = await keys("create", "--account", "acme", "--plan", "free");
    expect(downgrade.code).toBe(2);
    expect(downgrade.stderr.split("\n")).toEqual([
      expect.stringContaining("pelagic keys plan --account acme --plan free"),
    ]);
    for (const argv of [
      ["--account", "tab\there", "--plan", "free"],
      ["--account", "ok", "--plan", "free", "--rate-limit", "99999999999999999999999"],
    ]) {
      const refused = await keys("create", ...argv);
      expect(refused.code).toBe(2);
      expect(refused.stderr.split("\n")).toHaveLength(1);
    }
    const listing = (await keys("list")).stdout.split("\n");
    expect(listing.slice(1).map((line) => line.split("\t")[1])).toEqual(["acme"]);
    expect(listing[1]).toContain("premium");
    const changed = await keys("plan", "--account", "acme", "--plan", "free");
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain("premium -> free");
  });
});
