/** The help `pelagic --help` and `pelagic <command> --help` print, from the commands' specs. */
import type { CommandSpec, FlagSpec } from "./spec.js";

const WIDTH = 100;
const SETTINGS_ARE_FLAGS =
  "Every setting is also a flag (--log-level debug is LOG_LEVEL=debug); pelagic settings lists them.";

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Two columns: each term, then its text wrapped beside it (below it when the term is too wide). */
function table(rows: ReadonlyArray<readonly [string, string]>, indent = "  "): string[] {
  const column = Math.min(Math.max(...rows.map(([term]) => term.length)), 26) + 2;
  return rows.flatMap(([term, text]) => {
    const [first = "", ...rest] = wrap(text, WIDTH - indent.length - column);
    const pad = " ".repeat(indent.length + column);
    const head =
      term.length + 2 <= column ? [`${indent}${term.padEnd(column)}${first}`] : [`${indent}${term}`, `${pad}${first}`];
    return [...head, ...rest.map((line) => `${pad}${line}`)];
  });
}

function flagText(flag: FlagSpec): string {
  const shown = flag.default ?? flag.defaultText;
  const notes = [flag.setting ? `setting ${flag.setting}` : "", shown === undefined ? "" : `default: ${shown}`]
    .filter(Boolean)
    .join("; ");
  return notes ? `${flag.description} (${notes})` : flag.description;
}

export function commandHelp(command: CommandSpec): string {
  const flags = Object.entries(command.flags).map(
    ([name, flag]) => [`--${name}${flag.value ? ` ${flag.value}` : ""}`, flagText(flag)] as const,
  );
  const usage = command.actions
    ? [
        "actions:",
        ...Object.values(command.actions).flatMap((action) => [
          `  ${action.usage}`,
          ...wrap(action.summary, WIDTH - 6).map((line) => `      ${line}`),
        ]),
      ]
    : [`usage: pelagic ${command.name}${flags.length ? " [flags]" : ""} [--setting value ...]`];
  return [
    ...wrap(`pelagic ${command.name}: ${command.summary}`, WIDTH),
    "",
    ...wrap(command.description, WIDTH),
    "",
    ...usage,
    "",
    "flags:",
    ...table([...flags, ["-h, --help", "print this help"]]),
    "",
    ...wrap(SETTINGS_ARE_FLAGS, WIDTH),
    "",
    "examples:",
    ...command.examples.map((example) => `  ${example}`),
  ].join("\n");
}

export function overview(commands: readonly CommandSpec[]): string {
  return [
    "usage: pelagic <command> [--flag value ...]",
    "",
    "commands:",
    ...table(commands.map((c) => [c.name, c.summary])),
    "",
    "pelagic <command> --help (or pelagic help <command>) prints a command's flags and examples.",
    ...wrap(SETTINGS_ARE_FLAGS, WIDTH),
    "In a clone of the repository, pelagic is node bin/pelagic.js (or npm run pelagic -- <command>).",
  ].join("\n");
}
