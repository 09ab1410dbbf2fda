/**
 * Webhook secrets at rest. Signing needs the secret itself, so the store keeps it encrypted (AES-256-GCM, a fresh
 * nonce per secret), never hashed. The key is ISW_WEBHOOK_KEY when set, else the key file webhook-secrets.key in
 * DATA_DIR, created with owner-only permissions on first use. Every process that registers or delivers must share
 * the key: in the scaled mode, set ISW_WEBHOOK_KEY on each.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE, makePrivateDir } from "../../platform/private-files.js";

export const KEY_FILE = "webhook-secrets.key";
const VERSION = "v1";

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the webhook secret key must be 32 bytes");
  }

  seal(secret: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return [VERSION, nonce.toString("base64"), cipher.getAuthTag().toString("base64"), sealed.toString("base64")].join(
      ":",
    );
  }

  /** Throws when the box was sealed with another key (a process with a different ISW_WEBHOOK_KEY). */
  open(box: string): string {
    const [version, nonce, tag, sealed] = box.split(":");
    if (version !== VERSION || !nonce || !tag || sealed === undefined) throw new Error("not a sealed webhook secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64")), decipher.final()]).toString("utf8");
  }
}

function readOrCreateKeyFile(dataDir: string): Buffer {
  const path = join(dataDir, KEY_FILE);
  try {
    return Buffer.from(readFileSync(path, "utf8").trim(), "base64");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  makePrivateDir(dataDir);
  try {
    writeFileSync(path, `${randomBytes(32).toString("base64")}\n`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return Buffer.from(readFileSync(path, "utf8").trim(), "base64");
}

/** The configured box, opened on first use: a process that never seals or opens a secret creates no key file. */
export function lazySecretBox(config: Parameters<typeof secretBoxFromConfig>[0]): () => SecretBox {
  let box: SecretBox | undefined;
  return () => (box ??= secretBoxFromConfig(config));
}

export function secretBoxFromConfig(config: { isw: { webhookKey?: string }; store: { dataDir: string } }): SecretBox {
  const key = config.isw.webhookKey
    ? Buffer.from(config.isw.webhookKey.trim(), "base64")
    : readOrCreateKeyFile(config.store.dataDir);
  return new SecretBox(key);
}
