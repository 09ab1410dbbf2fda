// Loaded with `node --import` before @modelcontextprotocol/conformance (test/mcp-conformance.test.ts): the suite
// imports fs.globSync, which Node 22 added, only to tally results across runs; on Node 20 (this package's oldest)
// its import fails. Where fs has no globSync, the suite's `fs` resolves to node:fs with one that finds nothing.
import fs from "node:fs";
import { register } from "node:module";

const SHIM = `data:text/javascript,${encodeURIComponent(
  'export * from "node:fs"; import fs from "node:fs"; export default fs; export const globSync = () => [];',
)}`;

const HOOKS = `data:text/javascript,${encodeURIComponent(`
  export async function resolve(specifier, context, next) {
    const fromSuite = context.parentURL?.includes("/@modelcontextprotocol/conformance/");
    if (fromSuite && (specifier === "fs" || specifier === "node:fs")) return { url: ${JSON.stringify(SHIM)}, shortCircuit: true };
    return next(specifier, context);
  }
`)}`;

if (!("globSync" in fs)) register(HOOKS);
