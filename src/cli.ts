/**
 * The `pelagic` command. Global flags set configuration (`--port 9000` is `PORT=9000`);
 * each command may take flags of its own.
 */
import { ConfigError, describeSettings, flagToEnv, isConfigFlag, loadConfig, type Config } from "./config/index.js";
import { createLogger } from "./platform/logger.js";
import { startService, stopOnSignals, withMigratedStore } from "./runtime/index.js";
import { UsageError, runKeysCommand } from "./accounts/cli.js";
import { runIngestCommand } from "./ingest/command.js";
import { demoCommand, simCommand } from "./sim/cli.js";

interface Command {
  summary: string;
  /** Flags of this command (without the leading dashes) and whether each takes a value. */
  flags?: Record<string, "value" | "switch">;
  /** Whether the command takes positional words (e.g. `keys create`). */
  positionals?: boolean;
  run(config: Config, flags: Record<string, string>, positionals: string[]): Promise<void>;
}

const commands: Record<string, Command> = {
  serve: {
    summary: "run the HTTP service (and, with role all, ingest)",
    flags: { role: "value" },
    async run(config) {
      const logger = createLogger(config.server.logLevel);
      const service = await startService(config, { logger });
      stopOnSignals(service, logger, config.server.shutdownGraceMs);
    },
  },
  ingest: {
    summary: "backfill from the venue, then follow it (--until-caught-up: exit once caught up)",
    flags: { "until-caught-up": "switch" },
    async run(config, flags) {
      await runIngestCommand(config, { untilCaughtUp: flags["until-caught-up"] === "true" });
    },
  },
  settings: {
    summary: "print every setting (environment name, default, meaning) as a Markdown table",
    async run() {
      console.log("| setting | default | meaning |\n|---|---|---|");
      for (const s of describeSettings()) {
        console.log(`| \`${s.env}\` | \`${s.defaultText}\` | ${s.description} |`);
      }
    },
  },
  keys: {
    summary: "create, rotate, revoke or list API keys (pelagic keys --help)",
    flags: { account: "value", plan: "value", key: "value", "rate-limit": "value" },
    positionals: true,
    async run(config, flags, [action]) {
      await withMigratedStore(config, (store) => runKeysCommand(store.db, action, flags, Math.floor(Date.now() / 1000)));
    },
  },
  rebuild: {
    summary: "recompute positions, wallet and market statistics, snapshots and P&L points from the stored fills (run with ingest stopped)",
    async run(config) {
      const { runRebuildCommand } = await import("./derive/command.js");
      await runRebuildCommand(config);
    },
  },
  migrate: {
    summary: "bring the store's schema up to date and exit",
    async run(config) {
      await withMigratedStore(config, async (_store, applied) => {
        console.log(applied.length ? `applied: ${applied.join(", ")}` : "store is up to date");
      });
    },
  },
  sim: simCommand,
  demo: demoCommand,
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return ["usage: pelagic <command> [--setting value ...]", "", "commands:", ...lines, "", "settings: see README (every environment variable is also a --flag)"].join("\n");
}

/** Splits argv into configuration flags (by environment name) and the command's own flags. */
export function parseArgs(
  argv: string[],
  command: Command,
): { configFlags: Record<string, string>; ownFlags: Record<string, string>; positionals: string[] } {
  const configFlags: Record<string, string> = {};
  const ownFlags: Record<string, string> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith("--")) {
      if (!command.positionals) throw new ConfigError(arg, "unexpected argument");
      positionals.push(arg);
      continue;
    }
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const name = flag.slice(2);
    const own = command.flags?.[name];
    const takesValue = own ? own === "value" : isConfigFlag(flag);
    if (!own && !isConfigFlag(flag)) throw new ConfigError(flag, "unknown flag");
    let value = inline;
    if (value === undefined) value = takesValue ? argv[++i] : "true";
    if (value === undefined) throw new ConfigError(flag, "needs a value");
    // A command flag that is also a setting (serve --role) sets the setting.
    if (isConfigFlag(flag)) configFlags[flagToEnv(flag)] = value;
    else ownFlags[name] = value;
  }
  return { configFlags, ownFlags, positionals };
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`pelagic: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  let config: Config;
  let ownFlags: Record<string, string>;
  let positionals: string[];
  try {
    const parsed = parseArgs(rest, command);
    ownFlags = parsed.ownFlags;
    positionals = parsed.positionals;
    config = loadConfig(process.env, parsed.configFlags);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`pelagic: ${error.message}`);
      return 2;
    }
    throw error;
  }
  try {
    await command.run(config, ownFlags, positionals);
    return 0;
  } catch (error) {
    console.error(`pelagic ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof UsageError ? 2 : 1;
  }
}
