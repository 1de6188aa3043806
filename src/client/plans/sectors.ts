/** Plans of the market sectors (§4.8, §4.9), loaded with the first sector request (operations.ts). */
import { normaliseMarketSectorDetail, normaliseMarketSectors } from "../data/normalise-sectors";
import { detailPlan, listPlan } from "./catalogue";
import type { MarketSector, MarketSectorDetail } from "../data/types";

export const listMarketSectorsPlan = listPlan<MarketSector[]>(
  "listMarketSectors",
  normaliseMarketSectors
);

export const getMarketSectorPlan = detailPlan<MarketSectorDetail>(
  "getMarketSector",
  "marketSectorId",
  normaliseMarketSectorDetail
);
