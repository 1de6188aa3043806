/**
 * The market sectors (§4.8, §4.9) → their list and one sector with its projects. Apart from the rest of the
 * catalogue (normalise-catalogue.ts): the client loads these with the first sector request (operations.ts),
 * which only sector filters, the sector functions and the taskpane's catalogue make.
 */
import { optional } from "./normalise-catalogue";
import { asObject, firstString, isObject, mapUsable, optString, reqString } from "./read";
import type { Notes } from "./notes";
import type { MarketSector, MarketSectorDetail } from "./types";
import type { JsonValue } from "./wire";

export function normaliseMarketSectors(data: JsonValue, notes: Notes): MarketSector[] {
  return mapUsable(
    data,
    "data",
    (item, path) => {
      const id = firstString(item, ["id", "market_sector_id"]);
      return {
        id: id ?? reqString(item, "id", path),
        name: optString(item, "name") ?? id ?? "",
        ...optional("url", optString(item, "url")),
      };
    },
    notes
  );
}

export function normaliseMarketSectorDetail(data: JsonValue, notes: Notes): MarketSectorDetail {
  const obj = asObject(data, "data");
  const marketSectorId = firstString(obj, ["market_sector_id", "id"]);
  const id = marketSectorId ?? reqString(obj, "market_sector_id", "data");
  const description = isObject(obj.description) ? obj.description : {};
  const plain = typeof obj.description === "string" ? obj.description : undefined;
  return {
    marketSectorId: id,
    name: optString(obj, "name") ?? id,
    description: {
      ...optional("what", optString(description, "what") ?? plain),
      ...optional("how", optString(description, "how")),
    },
    projects: Array.isArray(obj.projects)
      ? mapUsable(
          obj.projects,
          "data.projects",
          (p, path) => {
            const projectId = reqString(p, "project_id", path);
            return {
              projectId,
              name: optString(p, "name") ?? projectId,
              ...optional("url", optString(p, "url")),
            };
          },
          notes,
          true
        )
      : [],
  };
}
