/**
 * Local state is the owner's alone: the data folder is created 0700, and the files in it that hold the store or a
 * key are created 0600 (the SQLite store's WAL and shared-memory files take the database file's mode from SQLite).
 * Existing folders and files keep the mode they have: an operator who widened one did so on purpose.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder and its missing parents, readable by the owner only. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates `path` empty and readable by the owner only, with its folder, unless it exists. */
export function touchPrivateFile(path: string): void {
  makePrivateDir(dirname(path));
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}
