/**
 * A project card as Excel's entity value (`Excel.EntityCellValue`, ExcelApi 1.16): what `CRYPTO.PROJECT("aave")`
 * returns where the host takes entities. The cell shows the project's name; the card opens on click; every
 * property is a field for `=A1.Revenue`, `=A1.[Revenue TTM]` and `FIELDVALUE(A1,"Symbol")`.
 *
 * Choices (the README repeats them):
 * - Only ExcelApi 1.16 shapes: numbers are FormattedNumber values (Double's numberFormat needs 1.19) and
 *   sections are List layouts (TwoColumn needs 1.19), so every host with entities shows the same card.
 * - A figure that cannot be given is a #N/A error value whose sublabel says why: `=A1.[P/S]` is then #N/A,
 *   never a missing field or a 0, and every card has the same fields, so templates line up.
 * - Lists (sectors, chains, links) are text, as PROJECT's fields are: Excel on the web reads only the first
 *   cell of an array field (office-js #6305), which would cut a list silently.
 * - No referencedValues anywhere (nested ones make the cell #VALUE!); the validator in src/sheet/entity.ts
 *   checks that and the rest before a card leaves.
 */
import { formatDay } from "../../client";
import { dayToSerial } from "../../sheet/excel-dates";
import { isMissing, type Figure, type Financials, type ProjectCard } from "./card-model";
import { DATE_FORMAT, formatOf } from "./card-formats";

type Property = Excel.EntityPropertyType;

/** Property names of the card's own fields; a metric whose name collides is shown as "<name> (latest)". */
const FIELDS = {
  id: "Id",
  name: "Name",
  symbol: "Symbol",
  description: "Description",
  sectors: "Sectors",
  chains: "Chains",
  launch: "Launch date",
  archived: "Archived",
  archivedReason: "Archived reason",
  maintenance: "Maintenance",
  links: "Links",
  revenueTtm: "Revenue TTM",
  feesTtm: "Fees TTM",
  ps: "P/S",
  pf: "P/F",
  financials: "Financials",
} as const;

/** Metrics shown among the key figures, when available (the rest go to the collapsed "Latest values"). */
const KEY_METRICS = ["price", "market_cap_fully_diluted", "tvl"] as const;

const CARD_ICON = "ArrowTrendingLines";
const MAX_TEXT = 2_000;

function clipped(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

function text(value: string, sublabel?: string): Property {
  const cell: Excel.StringCellValue & Excel.EntityPropertyExtraProperties = {
    type: "String",
    basicValue: clipped(value),
  };
  if (sublabel) cell.propertyMetadata = { sublabel: clipped(sublabel) };
  return cell;
}

function bool(value: boolean, sublabel?: string): Property {
  const cell: Excel.BooleanCellValue & Excel.EntityPropertyExtraProperties = {
    type: "Boolean",
    basicValue: value,
  };
  if (sublabel) cell.propertyMetadata = { sublabel: clipped(sublabel) };
  return cell;
}

function notAvailable(
  reason: string
): Excel.NotAvailableErrorCellValue & Excel.EntityPropertyExtraProperties {
  return {
    type: "Error",
    errorType: "NotAvailable",
    basicValue: "#N/A",
    propertyMetadata: { sublabel: clipped(reason) },
  };
}

function number(value: number, format: string, sublabel?: string): Property {
  const cell: Excel.FormattedNumberCellValue & Excel.EntityPropertyExtraProperties = {
    type: "FormattedNumber",
    basicValue: value,
    numberFormat: format,
  };
  if (sublabel) cell.propertyMetadata = { sublabel: clipped(sublabel) };
  return cell;
}

/** "as of 2026-11-19", plus the figure's own note. */
function asOfLabel(f: { asOf?: number; note?: string }): string | undefined {
  const parts = [f.asOf === undefined ? "" : `as of ${formatDay(f.asOf)}`, f.note ?? ""];
  const label = parts.filter((p) => p !== "").join("; ");
  return label === "" ? undefined : label;
}

function figure(f: Figure, format: string): Property {
  if (isMissing(f)) return notAvailable(f.missing);
  // A non-finite number must not reach Excel (the validator would refuse the whole card): say so instead.
  if (!Number.isFinite(f.value)) return notAvailable("the figure is not a finite number");
  return number(f.value, format, asOfLabel(f));
}

function dateFigure(f: Figure): Property {
  if (isMissing(f)) return notAvailable(f.missing);
  return number(dayToSerial(f.value), DATE_FORMAT, f.note);
}

function arrayOf(cells: Excel.CellValue[]): Excel.ArrayCellValue {
  return { type: "Array", elements: [cells] };
}

/** A cell inside an array (no property metadata there): a number, or #N/A. */
function arrayCell(f: Figure, format: string): Excel.CellValue {
  if (isMissing(f) || !Number.isFinite(f.value))
    return { type: "Error", errorType: "NotAvailable", basicValue: "#N/A" };
  return { type: "FormattedNumber", basicValue: f.value, numberFormat: format };
}

/** Unique property names, case-insensitively (Excel's dot access does not tell "Fees" from "fees"). */
class Names {
  private readonly taken = new Set<string>();

  constructor(reserved: Iterable<string>) {
    for (const name of reserved) this.taken.add(name.toLowerCase());
  }

  claim(wanted: string): string {
    const base = wanted.trim() === "" ? "Metric" : clipped(wanted.trim()).slice(0, 200);
    let name = this.taken.has(base.toLowerCase()) ? `${base} (latest)` : base;
    for (let i = 2; this.taken.has(name.toLowerCase()); i++) name = `${base} (${i})`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}

function financialsEntity(f: Financials): Excel.EntityCellValue {
  const first = f.quarters[0];
  const last = f.quarters[f.quarters.length - 1];
  const names = new Names(["Quarters", "Quarter ends"]);
  const properties: Record<string, Property> = {
    Quarters: arrayOf(f.quarters.map((q) => ({ type: "String", basicValue: q.label }))),
    "Quarter ends": arrayOf(
      f.quarters.map((q): Excel.CellValue => ({
        type: "FormattedNumber",
        basicValue: dayToSerial(q.end),
        numberFormat: DATE_FORMAT,
      }))
    ),
  };
  const sections: Excel.CardLayoutSection[] = [
    { layout: "List", properties: ["Quarters", "Quarter ends"] },
  ];
  for (const section of f.sections) {
    const listed: string[] = [];
    for (const line of section.lines) {
      const name = names.claim(line.name);
      const format = formatOf(line.metricId);
      properties[name] = arrayOf(line.values.map((v) => arrayCell(v, format)));
      listed.push(name);
    }
    if (listed.length > 0)
      sections.push({ layout: "List", title: section.title, properties: listed });
  }
  return {
    type: "Entity",
    text: `Financials, ${first.label} – ${last.label}`,
    properties,
    layouts: { card: { title: "Financials (last four complete quarters)", sections } },
  };
}

function provider(card: ProjectCard): Excel.CellValueProviderAttributes {
  switch (card.source) {
    case "simulated":
      return {
        description: `Cryptometrics · demo data from the local simulator (${card.serviceHost}), not real figures`,
      };
    case "service":
      return { description: `Cryptometrics · data from ${card.serviceHost}` };
    default:
      return { description: `Cryptometrics · ${card.serviceHost}` };
  }
}

/** The card as Excel's entity value. */
export function projectEntity(card: ProjectCard): Excel.EntityCellValue {
  const reserved = Object.values(FIELDS);
  const names = new Names(reserved);
  const properties: Record<string, Property> = {
    [FIELDS.id]: text(card.projectId),
    [FIELDS.name]: text(card.name),
    [FIELDS.symbol]: text(card.symbol, card.symbol === "" ? "no token launched" : undefined),
    [FIELDS.description]: text(card.description),
    [FIELDS.sectors]: text(card.sectors.join(", ")),
    [FIELDS.chains]: text(card.chains.join(", ")),
    [FIELDS.launch]: dateFigure(card.launch),
    [FIELDS.archived]: bool(
      card.archived,
      card.archived ? card.archivedReason || "archived" : undefined
    ),
    [FIELDS.archivedReason]: text(card.archivedReason),
    [FIELDS.maintenance]: text(card.maintenanceReason),
    [FIELDS.links]: text(card.links.map((l) => `${l.summary}: ${l.url}`).join("; ")),
    [FIELDS.revenueTtm]: figure(card.revenueTtm, formatOf("revenue")),
    [FIELDS.feesTtm]: figure(card.feesTtm, formatOf("fees")),
    [FIELDS.ps]: figure(card.ps, formatOf("ps_fully_diluted")),
    [FIELDS.pf]: figure(card.pf, formatOf("pf_fully_diluted")),
    [FIELDS.financials]: isMissing(card.financials)
      ? notAvailable(card.financials.missing)
      : financialsEntity(card.financials),
  };
  const metricNames = new Map<string, string>();
  for (const m of card.latest) {
    const name = names.claim(m.name);
    metricNames.set(m.metricId, name);
    properties[name] = figure(m.figure, formatOf(m.metricId));
  }
  const key = KEY_METRICS.flatMap((id) => metricNames.get(id) ?? []);
  const keyFigures = [...key, FIELDS.revenueTtm, FIELDS.feesTtm, FIELDS.ps, FIELDS.pf];
  const inKey = new Set(key);
  const latest = card.latest.flatMap((m) => {
    const name = metricNames.get(m.metricId)!;
    return inKey.has(name) ? [] : [name];
  });
  const profile = [
    FIELDS.id,
    FIELDS.symbol,
    FIELDS.sectors,
    FIELDS.chains,
    FIELDS.launch,
    FIELDS.archived,
    ...(card.archived ? [FIELDS.archivedReason] : []),
    ...(card.maintenanceReason ? [FIELDS.maintenance] : []),
    FIELDS.links,
    FIELDS.description,
  ];
  const sections: Excel.CardLayoutSection[] = [
    { layout: "List", title: "Key figures", collapsible: false, properties: keyFigures },
    { layout: "List", title: "Profile", collapsible: true, collapsed: false, properties: profile },
  ];
  if (latest.length > 0) {
    sections.push({
      layout: "List",
      title: "Latest values",
      collapsible: true,
      collapsed: true,
      properties: latest,
    });
  }
  sections.push({
    layout: "List",
    title: "Financials",
    collapsible: true,
    collapsed: true,
    properties: [FIELDS.financials],
  });
  return {
    type: "Entity",
    text: card.name,
    properties,
    layouts: {
      compact: { icon: CARD_ICON },
      card: {
        title: { property: FIELDS.name },
        subTitle: { property: card.symbol === "" ? FIELDS.id : FIELDS.symbol },
        sections,
      },
    },
    provider: provider(card),
  };
}
