/**
 * The versioned prompt (`prompts/wallet-analysis.v<N>.md`): a system part and a user part, the user part carrying
 * the inputs as JSON inside a <wallet_facts> block. A change of wording is a new file with the next version, so that
 * every saved report names the prompt it was written with.
 */
import { readFileSync } from "node:fs";
import type { AnalysisInputs } from "./inputs.js";
import { packagePath } from "../package.js";

export const PROMPT_VERSION = "wallet-analysis.v1";
const PROMPT_FILE = packagePath("src", "ai", "prompts", `${PROMPT_VERSION}.md`);
const PLACEHOLDER = "{{wallet_facts}}";

export interface PromptMessages {
  system: string;
  user: string;
}

let template: PromptMessages | undefined;

/** The prompt file's two parts, read once. */
export function promptTemplate(): PromptMessages {
  if (template) return template;
  const text = readFileSync(PROMPT_FILE, "utf8");
  const match = /^=== system ===\n([\s\S]*?)\n=== user ===\n([\s\S]*)$/.exec(text);
  if (!match || !match[2]!.includes(PLACEHOLDER))
    throw new Error(`${PROMPT_VERSION}: expected "=== system ===", "=== user ===" and ${PLACEHOLDER}`);
  template = { system: match[1]!.trim(), user: match[2]!.trim() };
  return template;
}

/**
 * The inputs as the prompt carries them: JSON (so every string is quoted and escaped), with `<`, `>` and `&` written
 * as \u escapes, so that no user-controlled text (a wallet's name) can close the <wallet_facts> block or open another.
 */
export function factsBlock(inputs: AnalysisInputs): string {
  return JSON.stringify(inputs, null, 1).replace(
    /[<>&]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function promptMessages(inputs: AnalysisInputs): PromptMessages {
  const { system, user } = promptTemplate();
  return { system, user: user.replace(PLACEHOLDER, () => factsBlock(inputs)) };
}
