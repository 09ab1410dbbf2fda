#!/usr/bin/env node
// Runs the service as `npm install` compiled it to dist/ (bin/build.js). When a source is newer than that build (an
// edit since), runs the sources through tsx instead, so an edit never runs stale: `npm run build` compiles it again.
// PELAGIC_RUNTIME=sources runs the sources whatever the build (to compare the two: `npm run bench start`).
import { fileURLToPath } from "node:url";
import { buildIsCurrent } from "./sources.js";

const current = buildIsCurrent(fileURLToPath(new URL("..", import.meta.url)));
let main;
if (current) {
  ({ main } = await import("../dist/commands/index.js"));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/commands/index.ts"));
}
if (process.env.PELAGIC_REPORT_RUNTIME === "1") process.stderr.write(`runtime: ${current ? "compiled" : "sources"}\n`);
const code = await main(process.argv.slice(2));
// serve keeps the event loop alive; other commands exit with their code.
if (code !== 0 || !["serve", "sim", "demo", "ingest"].includes(process.argv[2] ?? "")) process.exitCode = code;
