// The replay's read threads (replay-reads.ts): the TypeScript loader is registered per thread.
import { register } from "tsx/esm/api";

register();
await import("./replay-read-thread.ts");
