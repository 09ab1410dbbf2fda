/**
 * Standard Webhooks signatures: a secret `whsec_<base64 of 32 random bytes>` per registration, and on every
 * attempt the headers webhook-id (the message's, the same on retries), webhook-timestamp (unix seconds of the
 * attempt) and webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed by the secret's bytes>`.
 */
import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

export function secretKeyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

export function signatureOf(secret: string, messageId: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretKeyBytes(secret)).update(`${messageId}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

export function signedHeaders(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureOf(secret, messageId, timestamp, body),
  };
}
