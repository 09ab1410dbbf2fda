/** `pelagic settings`: every setting as a Markdown table (README's Configuration section is this table). */
import { describeSettings } from "../config/index.js";
import type { CommandSpec } from "./spec.js";

export const settingsCommand: CommandSpec = {
  name: "settings",
  summary: "print every setting (environment name, default, meaning) as a Markdown table",
  description:
    "Lists every setting Pelagic reads: its environment variable, its default and what it means. Each is also a flag of every command.",
  flags: {},
  examples: ["pelagic settings", "pelagic settings | grep INGEST_"],
  async run() {
    // One write: a reader that stops early (| head) closes the pipe after it, not in the middle of many.
    const rows = describeSettings().map((s) => `| \`${s.env}\` | \`${s.defaultText}\` | ${s.description} |`);
    console.log(["| setting | default | meaning |", "|---|---|---|", ...rows].join("\n"));
  },
};
