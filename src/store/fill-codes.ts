/**
 * A fill's five small codes in one integer, `fill_rows.codes` (issue 49, migration 0059): its side, entry type, role,
 * exchange version and source. A SQLite record spends a header byte on every column, even on a 0 or 1 that it keeps
 * in the header alone, so five columns of codes took five bytes of every fill's row; packed, they take one byte of
 * header and one of value. Each code keeps a few bits, the commonest fill (a chain fill of today's exchange) below
 * 128, which SQLite stores in one byte:
 *
 * | bits | code | values |
 * |---|---|---|
 * | 0 | side | `FILL_CODES.side` (0 BUY, 1 SELL) |
 * | 1-2 | entry type | `FILL_CODES.entry_type` (0 MINT, 1 MERGE, 2 COMPLEMENTARY), 3 none |
 * | 3-4 | role | `FILL_ROLES` (0 maker, 1 taker), 3 none |
 * | 5-6 | exchange version | the version itself (1 to 3), 0 none |
 * | 7 | source | `FILL_CODES.source` (0 chain, 1 data_api) |
 *
 * A value that does not fit is refused when written, as an unknown text is. The view `fills` and the statements over
 * `fill_rows` read each code back with `fillCodeSql`, the replay with `unpackFillCode`.
 */

interface PackedCode {
  readonly shift: number;
  readonly mask: number;
  /** The bits a fill without the value stores; absent where every fill has one. */
  readonly none?: number;
}

export const PACKED_FILL_CODES = {
  side: { shift: 0, mask: 1 },
  entry_type: { shift: 1, mask: 3, none: 3 },
  role: { shift: 3, mask: 3, none: 3 },
  exchange_version: { shift: 5, mask: 3, none: 0 },
  source: { shift: 7, mask: 1 },
} as const satisfies Record<string, PackedCode>;

export type PackedFillCode = keyof typeof PACKED_FILL_CODES;

const FIELDS = Object.entries(PACKED_FILL_CODES) as [PackedFillCode, PackedCode][];

/** The column that holds them. */
export const FILL_CODES_COLUMN = "codes";

/** A fill's codes packed (each as `storedCode` gives it, the exchange version as it is; null where it has none). */
export function packFillCodes(codes: Readonly<Record<PackedFillCode, number | null>>): number {
  let packed = 0;
  for (const [name, { shift, mask, none }] of FIELDS) {
    const value = codes[name];
    const bits = value === null ? none : value;
    if (bits === undefined || !Number.isInteger(bits) || bits < 0 || bits > mask || (value !== null && bits === none))
      throw new Error(`store: a fill's ${name} ${JSON.stringify(value)} has no code`);
    packed += bits * 2 ** shift;
  }
  return packed;
}

/** One code of a packed value (null where the fill has none). */
export function unpackFillCode(packed: number, name: PackedFillCode): number | null {
  const { shift, mask, none } = PACKED_FILL_CODES[name] as PackedCode;
  const bits = (packed >> shift) & mask;
  return bits === none ? null : bits;
}

/**
 * SQL: one code of `fill_rows.codes` under alias `f` (unqualified where `f` is empty: a partial index's condition),
 * null where the fill has none; the same text on both stores.
 */
export function fillCodeSql(name: PackedFillCode, f = "f"): string {
  const { shift, mask, none } = PACKED_FILL_CODES[name] as PackedCode;
  const column = f ? `${f}.${FILL_CODES_COLUMN}` : FILL_CODES_COLUMN;
  const bits = shift === 0 ? `(${column} & ${mask})` : `((${column} >> ${shift}) & ${mask})`;
  return none === undefined ? bits : `nullif(${bits}, ${none})`;
}

/** SQL: the packed value of five code expressions (for the migration that packs the stored columns). */
export function packFillCodesSql(codes: Readonly<Record<PackedFillCode, string>>): string {
  return FIELDS.map(([name, { shift, none }]) => {
    const bits = none === undefined ? `(${codes[name]})` : `coalesce(${codes[name]}, ${none})`;
    return shift === 0 ? bits : `(${bits} << ${shift})`;
  }).join(" | ");
}
