/** What every route plugin receives: the process's configuration, store and platform. */
import type { Config } from "../config/index.js";
import type { Platform } from "../platform/index.js";
import type { Store } from "../store/database.js";

export interface AppContext {
  readonly config: Config;
  readonly store: Store;
  readonly platform: Platform;
  /** Ingest sources whose first full sync must finish before `ready` turns true. */
  readonly expectedSources: readonly string[];
  readonly startedAt: number;
}
