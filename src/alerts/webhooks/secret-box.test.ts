import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { KEY_FILE, SecretBox, secretBoxFromConfig } from "./secret-box.js";
import { newWebhookSecret } from "./signing.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("webhook secrets at rest", () => {
  it("seals each secret with a fresh nonce, opens it with the same key only", () => {
    const box = new SecretBox(randomBytes(32));
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [a, b] = [box.seal(secret), box.seal(secret)];
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret.slice(6, 20));
    expect(box.open(a)).toBe(secret);
    expect(() => new SecretBox(randomBytes(32)).open(a)).toThrow();
    expect(() => box.open(a.replace(/.$/, (c) => (c === "A" ? "B" : "A")))).toThrow();
  });

  it("takes ISW_WEBHOOK_KEY, or creates an owner-only key file in DATA_DIR once and reuses it", () => {
    const dir = mkdtempSync(join(tmpdir(), "pelagic-box-"));
    dirs.push(dir);
    const sealed = secretBoxFromConfig({ isw: {}, store: { dataDir: dir } }).seal("whsec_x");
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(secretBoxFromConfig({ isw: {}, store: { dataDir: dir } }).open(sealed)).toBe("whsec_x");
    const key = randomBytes(32).toString("base64");
    const withSetting = secretBoxFromConfig({ isw: { webhookKey: key }, store: { dataDir: dir } });
    expect(() => withSetting.open(sealed)).toThrow();
    expect(readFileSync(join(dir, KEY_FILE), "utf8").trim()).not.toBe(key);
  });
});
