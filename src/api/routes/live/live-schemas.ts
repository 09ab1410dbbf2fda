/** The live streams' schemas. */
import { Type } from "typebox";

export const TypesParameter = Type.Optional(
  Type.String({
    description: "comma-separated subset of mint, merge, complementary; omit for every classified fill",
    examples: ["mint,merge"],
  }),
);
