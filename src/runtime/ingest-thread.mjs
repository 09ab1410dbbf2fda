// Role all's ingest thread (ingest-worker.ts): the TypeScript loader is registered per thread.
import { register } from "tsx/esm/api";

register();
await import("./ingest-thread.ts");
