import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { describeSettings } from "../src/config/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("README", () => {
  it("documents every setting with its default", () => {
    for (const s of describeSettings()) expect(readme).toContain(`| \`${s.env}\` | \`${s.defaultText}\` |`);
  });

  it("gives the two quick-start commands", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm install && npm test");
  });
});
