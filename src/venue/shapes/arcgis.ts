/** ArcGIS FeatureServer payloads of the ISW territory layers (the ISW layers on ArcGIS). */
import { Type, type Static } from "typebox";
import { Maybe, defineShape } from "./shape.js";

/** `?f=json` layer metadata; `editingInfo.lastEditDate` (ms since the epoch) is the cheap change check. */
export const ArcGisLayerMetadataSchema = Type.Object({
  name: Maybe(Type.String()),
  type: Maybe(Type.String()),
  objectIdField: Maybe(Type.String()),
  maxRecordCount: Maybe(Type.Integer()),
  editingInfo: Maybe(
    Type.Object({
      lastEditDate: Maybe(Type.Integer()),
      schemaLastEditDate: Maybe(Type.Integer()),
      dataLastEditDate: Maybe(Type.Integer()),
    }),
  ),
});

/** What the server sends, inside HTTP 200, when it throttles (code 429) or refuses a query. */
export const ArcGisErrorSchema = Type.Object({
  error: Type.Object({
    code: Type.Integer(),
    message: Maybe(Type.String()),
    details: Maybe(Type.Array(Type.String())),
  }),
});

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 4 });
const Ring = Type.Array(Position);

export const GeoJsonPolygonSchema = Type.Object({ type: Type.Literal("Polygon"), coordinates: Type.Array(Ring) });
export const GeoJsonMultiPolygonSchema = Type.Object({
  type: Type.Literal("MultiPolygon"),
  coordinates: Type.Array(Type.Array(Ring)),
});
export const GeoJsonPointSchema = Type.Object({ type: Type.Literal("Point"), coordinates: Position });
/** Other geometry types pass through unchecked; the territory code keeps only polygons. */
const OtherGeometry = Type.Object({
  type: Type.Union([
    Type.Literal("MultiPoint"),
    Type.Literal("LineString"),
    Type.Literal("MultiLineString"),
    Type.Literal("GeometryCollection"),
  ]),
});

export const GeoJsonFeatureSchema = Type.Object({
  type: Type.Literal("Feature"),
  id: Maybe(Type.Union([Type.Integer(), Type.String()])),
  geometry: Type.Union([
    GeoJsonPolygonSchema,
    GeoJsonMultiPolygonSchema,
    GeoJsonPointSchema,
    OtherGeometry,
    Type.Null(),
  ]),
  properties: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

/** One `f=geojson` query page: more pages follow while `exceededTransferLimit` is true, at the top level or under `properties`. */
export const GeoJsonQueryPageSchema = Type.Object({
  type: Type.Literal("FeatureCollection"),
  features: Type.Array(GeoJsonFeatureSchema),
  exceededTransferLimit: Maybe(Type.Boolean()),
  properties: Maybe(Type.Object({ exceededTransferLimit: Maybe(Type.Boolean()) })),
});

export type ArcGisLayerMetadata = Static<typeof ArcGisLayerMetadataSchema>;
export type ArcGisError = Static<typeof ArcGisErrorSchema>;
export type GeoJsonFeature = Static<typeof GeoJsonFeatureSchema>;
export type GeoJsonQueryPage = Static<typeof GeoJsonQueryPageSchema>;

export const ArcGisLayerMetadataShape = defineShape("arcgis layer metadata", ArcGisLayerMetadataSchema);
export const ArcGisErrorShape = defineShape("arcgis error", ArcGisErrorSchema);
export const GeoJsonQueryPageShape = defineShape("arcgis geojson query page", GeoJsonQueryPageSchema);

/** True when the page says more features follow. */
export function pageExceededTransferLimit(page: GeoJsonQueryPage): boolean {
  return page.exceededTransferLimit === true || page.properties?.exceededTransferLimit === true;
}
