// The window aggregates' worker thread (aggregates-worker.ts): the TypeScript loader is registered per thread.
import { register } from "tsx/esm/api";

register();
await import("./aggregates-thread.ts");
