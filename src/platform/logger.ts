/** Structured logs (pino). Secrets never reach a log line: headers that carry keys are redacted at the source. */
import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

export const REDACTED_PATHS = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'req.headers["sec-websocket-protocol"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-api-key"]',
  "apiKey",
  "key",
  "secret",
  "*.apiKey",
  "*.secret",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "pelagic" },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
