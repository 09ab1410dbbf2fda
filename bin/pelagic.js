#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so a fresh clone needs no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/commands/index.ts");
const code = await main(process.argv.slice(2));
// serve keeps the event loop alive; other commands exit with their code.
if (code !== 0 || !["serve", "sim", "demo", "ingest"].includes(process.argv[2] ?? "")) process.exitCode = code;
