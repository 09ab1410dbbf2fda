/** Checks of the territory monitor's settings that one value's parser cannot make alone. */
import { ConfigError } from "./settings.js";

/** `ISW_WEBHOOK_RETRY_SCHEDULE` as seconds: one to twenty whole numbers, each at most a day. */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(",").map((part) => part.trim());
  if (parts.length === 0 || parts.length > 20 || parts.some((part) => !/^\d+$/.test(part) || Number(part) > 86_400)) {
    throw new ConfigError(
      "ISW_WEBHOOK_RETRY_SCHEDULE",
      `expected 1 to 20 comma-separated whole seconds, each at most 86400, got "${text}"`,
    );
  }
  return parts.map(Number);
}

export function checkRetrySchedule(text: string): void {
  parseRetrySchedule(text);
}

/** `ISW_WEBHOOK_KEY`, when set, is 32 bytes in base64. */
export function checkWebhookKey(text: string | undefined): void {
  if (text === undefined) return;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text.trim()) || Buffer.from(text.trim(), "base64").length !== 32) {
    throw new ConfigError(
      "ISW_WEBHOOK_KEY",
      "expected 32 bytes in base64 (e.g. the output of: openssl rand -base64 32)",
    );
  }
}
