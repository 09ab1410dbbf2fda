/** What a `pelagic` command declares: its help (summary, description, flags, examples) and what it runs. */
import { PelagicError } from "../errors/index.js";
import { describeSettings, type Config } from "../config/index.js";

export interface FlagSpec {
  /** The value's name in help (`<n>`); a flag without one is a switch and takes no value. */
  readonly value?: string;
  readonly description: string;
  /** Used when the flag is absent, and shown in help. */
  readonly default?: string;
  /** Shown in help when the command works the default out itself ("today"). */
  readonly defaultText?: string;
  /** The setting this flag is (serve's `--role` is ROLE): the configuration reads it, with the setting's default. */
  readonly setting?: string;
}

/** A command's own flags by name (without the dashes): a switch is "true" when given, a value flag its text. */
export type Flags = Readonly<Record<string, string>>;

export interface CommandSpec {
  readonly name: string;
  /** One line, for `pelagic --help`. */
  readonly summary: string;
  /** A sentence or two, for `pelagic <command> --help`. */
  readonly description: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** The words a command takes after its name (`keys create`): the usage of each, and what it does. */
  readonly actions?: Readonly<Record<string, { readonly usage: string; readonly summary: string }>>;
  readonly examples: readonly string[];
  run(config: Config, flags: Flags, positionals: readonly string[]): Promise<void>;
}

/** A mistake in how a command was called: exit code 2, with a pointer to the command's help. */
export class UsageError extends PelagicError {
  constructor(message: string) {
    super("CLI_USAGE", message);
  }
}

/** A setting listed among a command's flags, with the setting's own description and default. */
export function settingFlag(env: string, value: string): FlagSpec {
  const setting = describeSettings().find((s) => s.env === env);
  if (!setting) throw new Error(`no setting ${env}`);
  return {
    value,
    description: setting.description,
    ...(setting.default === undefined ? {} : { defaultText: setting.defaultText }),
    setting: env,
  };
}
