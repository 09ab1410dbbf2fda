// The chain reader's worker thread (chain-reader.ts): the TypeScript loader is registered per thread.
import { register } from "tsx/esm/api";

register();
await import("./chain-reader-worker.ts");
