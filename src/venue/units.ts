/**
 * Units of Pelagic's venue records: amounts in micro-units (integers; 1 USD or 1 share = 1_000_000, the
 * venue's own 6 decimals) and times in unix seconds.
 */

export const MICRO = 1_000_000;

/** An exact decimal: mantissa / 10^scale. */
interface Decimal {
  readonly mantissa: bigint;
  readonly scale: number;
}

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function parseDecimal(value: number | string): Decimal {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  // String(number) gives the shortest decimal that reads back as the same float: the digits the venue wrote.
  const text = typeof value === "number" ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  const whole = match?.[2] ?? "";
  const fraction = match?.[3] ?? "";
  if (!match || (whole === "" && fraction === ""))
    throw new RangeError(`not a decimal amount: ${JSON.stringify(value)}`);
  const digits = BigInt(whole + fraction);
  const scale = fraction.length - Number(match[4] ?? 0);
  const mantissa = match[1] === "-" ? -digits : digits;
  return scale >= 0 ? { mantissa, scale } : { mantissa: mantissa * 10n ** BigInt(-scale), scale: 0 };
}

/** numerator / denominator rounded half away from zero (denominator > 0). */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
}

function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${what} out of range: ${value}`);
  }
  return Number(value);
}

function microOf(decimal: Decimal): bigint {
  return decimal.scale <= 6
    ? decimal.mantissa * 10n ** BigInt(6 - decimal.scale)
    : divRound(decimal.mantissa, 10n ** BigInt(decimal.scale - 6));
}

/**
 * A decimal amount (JSON number or numeric string) in micro-units, rounded half away from zero.
 * Works on the decimal digits rather than on `x * 1e6`, so 0.1234565 gives 123457, not the 123456 the
 * binary product would. Throws RangeError when the value is not a finite decimal or exceeds 2^53 micro-units.
 */
export function toMicro(value: number | string): number {
  return toSafeNumber(microOf(parseDecimal(value)), "amount");
}

/** Like toMicro, but null for absent values instead of throwing. */
export function toMicroOrNull(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  return toMicro(value);
}

/** The product of two decimals (shares × price) in micro-units, computed exactly and rounded once. */
export function productMicro(a: number | string, b: number | string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return toSafeNumber(microOf({ mantissa: x.mantissa * y.mantissa, scale: x.scale + y.scale }), "amount");
}

/** A micro-unit amount as a plain number of USD or shares (for display and float statistics only). */
export function fromMicro(micro: number): number {
  return micro / MICRO;
}

/**
 * Unix seconds from the venue's time strings: ISO 8601 (`2020-11-04T00:00:00Z`), Postgres-style
 * (`2026-09-24 14:02:16+00`), or a bare date (`2020-11-04`, midnight UTC). Null when absent or unreadable.
 */
export function parseVenueTime(value: string | null | undefined): number | null {
  if (!value) return null;
  let text = value.trim().replace(" ", "T");
  // "+00" / "-05" offsets lack the minutes Date.parse requires.
  text = text.replace(/(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?[+-]\d{2})$/, "$1:00");
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) text += "Z";
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}
