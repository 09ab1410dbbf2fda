import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/commands/index.js";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const sources = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => join(SRC, file));

/** The files a source imports by a relative path (static, re-exported or dynamic), as .ts paths. */
function localImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => resolve(dirname(file), (m[1] as string).replace(/\.js$/, ".ts")));
}

describe("source layout (issue 22)", () => {
  it("has one file per command in src/commands/", () => {
    for (const command of COMMANDS) expect(existsSync(join(SRC, "commands", `${command.name}.ts`)), command.name).toBe(true);
  });

  it("lets only the dispatcher import a command, and nothing import a server module", () => {
    const commandFiles = new Set(COMMANDS.map((c) => join(SRC, "commands", `${c.name}.ts`)));
    const dispatcher = join(SRC, "commands", "index.ts");
    const offending = sources.flatMap((file) =>
      localImports(file)
        .filter((target) => (commandFiles.has(target) && file !== dispatcher) || /\/server\.ts$/.test(target))
        .map((target) => `${relative(SRC, file)} imports ${relative(SRC, target)}`),
    );
    expect(offending).toEqual([]);
  });
});
