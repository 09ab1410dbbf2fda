/**
 * The `pelagic` command: one file per command in this folder. Every setting is also a flag (`--port 9000` is
 * `PORT=9000`); each command may take flags of its own, and answers `--help`.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { checkCitiesFile } from "../isw/cities.js";
import { useExtraExchanges } from "../venue/contracts.js";
import { ConfigError, describeSettings, flagToEnv, loadConfig, settingFlagName, type Config } from "../config/index.js";
import { commandHelp, overview } from "./help.js";
import { UsageError, type CommandSpec } from "./spec.js";

/**
 * Each command's module, in the overview's order, imported only when needed: `pelagic ingest` loads the ingest and
 * the store, not the HTTP service, so that a process starts in a fraction of the time (each kill of
 * test/ingest-kill.test.ts is a start). Listing them all (`pelagic --help`) imports every one.
 */
const COMMAND_MODULES = new Map<string, () => Promise<CommandSpec>>([
  ["serve", async () => (await import("./serve.js")).serveCommand],
  ["ingest", async () => (await import("./ingest.js")).ingestCommand],
  ["settings", async () => (await import("./settings.js")).settingsCommand],
  ["keys", async () => (await import("./keys.js")).keysCommand],
  ["rebuild", async () => (await import("./rebuild.js")).rebuildCommand],
  ["migrate", async () => (await import("./migrate.js")).migrateCommand],
  ["sim", async () => (await import("./sim.js")).simCommand],
  ["demo", async () => (await import("./demo.js")).demoCommand],
  ["mcp", async () => (await import("./mcp.js")).mcpCommand],
  ["scorecard", async () => (await import("./scorecard.js")).scorecardCommand],
]);

export const COMMAND_NAMES: readonly string[] = [...COMMAND_MODULES.keys()];

/** The named command's spec, its module imported; undefined when there is no such command. */
export async function loadCommand(name: string): Promise<CommandSpec | undefined> {
  return COMMAND_MODULES.get(name)?.();
}

/** Every command's spec, each module imported. */
export function loadCommands(): Promise<CommandSpec[]> {
  return Promise.all([...COMMAND_MODULES.values()].map((load) => load()));
}

export interface CommandLine {
  /** Settings given as flags, by environment name (`--data-dir x` is DATA_DIR). */
  readonly settings: Record<string, string>;
  /** The command's own flags, defaults included. */
  readonly flags: Record<string, string>;
  readonly positionals: string[];
  readonly help: boolean;
}

/**
 * Reads a command's arguments with node:util's parseArgs, in its lenient mode: a value may start with a dash
 * (`--seed -5`), and the unknown flags and missing values are refused here, each in one line naming the flag.
 */
export function parseCommandLine(argv: readonly string[], command: CommandSpec): CommandLine {
  const options: NonNullable<ParseArgsConfig["options"]> = { help: { type: "boolean", short: "h" } };
  for (const { env } of describeSettings()) options[settingFlagName(env)] = { type: "string" };
  const ownFlags = Object.entries(command.flags).filter(([, flag]) => !flag.setting);
  for (const [name, flag] of ownFlags) options[name] = { type: flag.value ? "string" : "boolean" };
  const isOwn = new Set(ownFlags.map(([name]) => name));
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const line: CommandLine = {
    settings: {},
    flags: {},
    positionals: [],
    help: tokens.some((t) => t.kind === "option" && t.name === "help"),
  };
  if (line.help) return line;
  for (const token of tokens) {
    if (token.kind === "positional") line.positionals.push(token.value);
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(options, token.name)) throw new UsageError(`unknown flag ${token.rawName}`);
    if (options[token.name]?.type === "string" && token.value === undefined)
      throw new UsageError(`${token.rawName} needs a value`);
    const value = token.value ?? "true";
    if (isOwn.has(token.name)) line.flags[token.name] = value;
    else line.settings[flagToEnv(token.name)] = value;
  }
  const wordsTaken = command.actions ? 1 : 0;
  if (line.positionals.length > wordsTaken) throw new UsageError(`unexpected argument ${line.positionals[wordsTaken]}`);
  for (const [name, flag] of ownFlags) if (flag.default !== undefined) line.flags[name] ??= flag.default;
  return line;
}

async function unknownCommand(name: string): Promise<number> {
  console.error(`pelagic: unknown command "${name}"\n\n${overview(await loadCommands())}`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    console.error(overview(await loadCommands()));
    return 2;
  }
  if (name === "help" || name === "--help" || name === "-h") {
    const topic = rest[0];
    if (topic === undefined) console.log(overview(await loadCommands()));
    else {
      const command = await loadCommand(topic);
      if (!command) return unknownCommand(topic);
      console.log(commandHelp(command));
    }
    return 0;
  }
  const command = await loadCommand(name);
  if (!command) return unknownCommand(name);
  const seeHelp = `(see pelagic ${command.name} --help)`;
  let line: CommandLine;
  let config: Config;
  try {
    line = parseCommandLine(rest, command);
    if (line.help) {
      console.log(commandHelp(command));
      return 0;
    }
    config = loadConfig(process.env, line.settings);
    checkCitiesFile(config.isw);
    useExtraExchanges(config.venue.extraExchanges);
  } catch (error) {
    if (error instanceof UsageError) console.error(`pelagic: ${error.message} ${seeHelp}`);
    else if (error instanceof ConfigError) console.error(`pelagic: ${error.message}`);
    else throw error;
    return 2;
  }
  try {
    await command.run(config, line.flags, line.positionals);
    return 0;
  } catch (error) {
    const usage = error instanceof UsageError;
    console.error(
      `pelagic ${command.name}: ${error instanceof Error ? error.message : String(error)}${usage ? ` ${seeHelp}` : ""}`,
    );
    return usage ? 2 : 1;
  }
}
