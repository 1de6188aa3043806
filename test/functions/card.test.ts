/**
 * Projects as Excel data types: PROJECT without a field gives a card where the host takes entity values, and
 * a card goes wherever a project goes. Against the simulator over loopback HTTP, through the functions as
 * Excel calls them.
 */
import { installCliHost } from "../../src/cli/host";
import * as fns from "../../src/functions/functions";
import { resetHostProbe } from "../../src/functions/host";
import { validateEntity } from "../../src/sheet/entity";
import { dataset, excelError, inv, show, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Card = Excel.EntityCellValue;
type Property = Excel.EntityPropertyType;

async function card(project: unknown): Promise<Card> {
  const result = (await fns.project_(project, null, inv())) as unknown[][];
  expect(result).toHaveLength(1);
  expect(result[0]).toHaveLength(1);
  return result[0][0] as Card;
}

/** A card's property by name (failing the test when it has none). */
function field(c: Card, name: string): Property {
  const property = c.properties?.[name];
  if (property === undefined) throw new Error(`the card has no property "${name}"`);
  return property;
}

function sublabel(property: Property): string | undefined {
  return (property as Excel.EntityPropertyExtraProperties).propertyMetadata?.sublabel;
}

/** A card property as a plain value: numbers, text, TRUE/FALSE, "#N/A: why", arrays as rows. */
function plain(property: Property | Excel.CellValue): unknown {
  switch (property.type) {
    case "Error":
      return `${String(property.basicValue)}: ${sublabel(property) ?? ""}`;
    case "Array":
      return property.elements.map((row) => row.map((cell) => plain(cell)));
    case "Entity":
      return property.text;
    default:
      return "basicValue" in property ? property.basicValue : undefined;
  }
}

describe("PROJECT without a field, where the host takes entity values", () => {
  let aave: Card;
  beforeAll(async () => {
    aave = await card("aave");
  });

  it("returns a card Excel takes, showing the project's name", () => {
    expect(aave.type).toBe("Entity");
    expect(aave.text).toBe("Aave");
    expect(validateEntity(aave)).toEqual([]);
  });

  it("holds the profile: Id, Name, Symbol, Sectors, Chains, a real launch date, Archived, Links", () => {
    const info = dataset.project("aave")!;
    expect(plain(field(aave, "Id"))).toBe("aave");
    expect(plain(field(aave, "Name"))).toBe("Aave");
    expect(plain(field(aave, "Symbol"))).toBe("AAVE");
    expect(plain(field(aave, "Sectors"))).toBe(info.sectors.join(", "));
    expect(plain(field(aave, "Chains"))).toBe(info.chains.join(", "));
    const launch = field(aave, "Launch date");
    expect(launch).toMatchObject({ type: "FormattedNumber", numberFormat: "yyyy-mm-dd" });
    expect(show({ ...launch, type: "Double" })).toBe(info.launch);
    expect(plain(field(aave, "Archived"))).toBe(false);
    expect(plain(field(aave, "Links"))).toMatch(/^Website: https:\/\/aave\.example; /);
  });

  it("holds the latest value of every metric available, under the service's metric name", async () => {
    const available = Object.entries(
      ((await fns.project_("aave", "metrics_available", inv())) as string[][])[0]
    );
    const ids = String(available[0][1]).split(", ");
    const names = new Map(dataset.metrics.map((m) => [m.id, m.name]));
    for (const id of ids) {
      const property = field(aave, names.get(id)!);
      // A warm VALUE returns its number, not a promise: Promise.resolve takes either.
      const cell = await Promise.resolve(fns.value_("aave", id, null, null, inv())).catch(
        (e: Error) => e
      );
      if (typeof cell === "number") {
        expect(property).toMatchObject({ type: "FormattedNumber", basicValue: cell });
        // Its as-of date is the note: the day of the series' last value.
        const rows = (await fns.metric_(
          [["aave"]],
          [[id]],
          null,
          null,
          null,
          inv()
        )) as unknown[][];
        const lastDay = rows.at(-1)![0] as number | Excel.FormattedNumberCellValue;
        const serial = typeof lastDay === "number" ? lastDay : lastDay.basicValue;
        const asOf = `as of ${new Date((serial - 25569) * 86_400_000).toISOString().slice(0, 10)}`;
        // The service's own ratios say which they are: the card's P/S and P/F are on TTM.
        if (id === "pf_fully_diluted" || id === "ps_fully_diluted")
          expect(sublabel(property)).toMatch(
            new RegExp(`^${asOf}; the service's own P/[SF], on annualised .* of the last 30 days`)
          );
        else expect(sublabel(property)).toBe(asOf);
      } else {
        expect(plain(property)).toMatch(/^#N\/A: /);
      }
    }
  });

  it("holds the last four complete quarters of the statement lines, equal to VALUE by quarter", async () => {
    const financials = field(aave, "Financials") as Card;
    expect(financials.type).toBe("Entity");
    expect(plain(field(financials, "Quarters"))).toEqual([
      ["Q4 2025", "Q1 2026", "Q2 2026", "Q3 2026"],
    ]);
    const ends = ["2025-12-31", "2026-03-31", "2026-06-30", "2026-09-30"];
    const revenue = await Promise.all(
      ends.map((end) => fns.value_("aave", "revenue", end, "period=quarter", inv()))
    );
    expect(plain(field(financials, "Revenue"))).toEqual([revenue]);
  });

  it("shows every standard statement line on every card, a line the project lacks as #N/A", async () => {
    const lines = (c: Card) =>
      Object.keys((field(c, "Financials") as Card).properties ?? {}).filter(
        (k) => k !== "Quarters" && k !== "Quarter ends"
      );
    const uniswap = await card("uniswap");
    expect(lines(uniswap)).toEqual(lines(aave));
    const financials = field(uniswap, "Financials") as Card;
    const loans = plain(field(financials, "Active loans")) as string[][];
    expect(loans[0]).toEqual(Array(4).fill("#N/A: "));
  });

  it("dates an archived project's quarters by its last data (May 2022), not by today", async () => {
    const anchor = await card("anchor-protocol");
    const financials = field(anchor, "Financials") as Card;
    expect(plain(field(financials, "Quarters"))).toEqual([
      ["Q2 2021", "Q3 2021", "Q4 2021", "Q1 2022"],
    ]);
    // Each quarter is its fees when every day has a value, else a #N/A (an array element keeps no message).
    const fees = plain(field(financials, "Fees")) as unknown[][];
    const quarters = [
      ["2021-04-01", "2021-06-30"],
      ["2021-07-01", "2021-09-30"],
      ["2021-10-01", "2021-12-31"],
      ["2022-01-01", "2022-03-31"],
    ];
    quarters.forEach(([start, end], i) => {
      const days = dataset.daily("anchor-protocol", "fees", { start, end });
      if (days.every((p) => p.value !== null)) expect(typeof fees[0][i]).toBe("number");
      else expect(fees[0][i]).toBe("#N/A: ");
    });
  });

  it('gives Revenue TTM and Fees TTM as VALUE(...,"window=ttm") does, and P/S, P/F on them', async () => {
    const [revenue, fees, cap] = await Promise.all([
      fns.value_("aave", "revenue", null, "window=ttm", inv()),
      fns.value_("aave", "fees", null, "window=ttm", inv()),
      fns.value_("aave", "market_cap_fully_diluted", null, null, inv()),
    ]);
    expect(plain(field(aave, "Revenue TTM"))).toBe(revenue);
    expect(plain(field(aave, "Fees TTM"))).toBe(fees);
    expect(plain(field(aave, "P/S"))).toBeCloseTo((cap as number) / (revenue as number), 9);
    expect(plain(field(aave, "P/F"))).toBeCloseTo((cap as number) / (fees as number), 9);
  });

  it("lays the card out: title, key figures, profile, then collapsed sections for the rest", () => {
    const layout = aave.layouts?.card;
    expect(layout?.title).toEqual({ property: "Name" });
    const sections = layout?.sections ?? [];
    expect(sections.map((s) => [s.title, s.collapsed === true])).toEqual([
      ["Key figures", false],
      ["Profile", false],
      ["Latest values", true],
      ["Financials", true],
    ]);
    expect(sections[0].properties).toEqual(
      expect.arrayContaining(["Revenue TTM", "Fees TTM", "P/S", "P/F"])
    );
    expect(aave.layouts?.compact?.icon).toEqual(expect.any(String));
  });

  it("names its data source, and says when it is the simulator's demo data", () => {
    expect(aave.provider?.description).toMatch(/demo data .*not real figures/);
  });

  it("gives an archived project no latest value, and says why", async () => {
    const anchor = await card("anchor-protocol");
    expect(plain(field(anchor, "Archived"))).toBe(true);
    expect(sublabel(field(anchor, "Archived"))).toMatch(/\w/);
    expect(plain(field(anchor, "Archived reason"))).toBe(
      dataset.project("anchor-protocol")!.archivedReason
    );
  });

  it("refuses an unknown project as PROJECT always has: #N/A with suggestions", async () => {
    const error = await excelError(fns.project_("aavee", null, inv()));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/did you mean "aave"/);
  });
});

describe("hosts without entity values", () => {
  afterEach(() => {
    installCliHost();
    resetHostProbe();
  });

  it("get today's field/value table (the CLI's --legacy-host)", async () => {
    installCliHost(globalThis, true);
    const table = showTable((await fns.project_("aave", null, inv())) as unknown[][]);
    expect(table[0]).toEqual(["field", "value"]);
    expect(table).toContainEqual(["symbol", "AAVE"]);
  });

  it("are told apart at run time by Office's requirement sets, as formatted dates are", async () => {
    const global = globalThis as { __CM_HOST__?: unknown; Office?: unknown };
    const declared = global.__CM_HOST__;
    delete global.__CM_HOST__;
    const supported = new Set<string>();
    global.Office = {
      context: {
        requirements: {
          isSetSupported: (set: string, version: string) => supported.has(`${set} ${version}`),
        },
      },
    };
    try {
      resetHostProbe();
      expect(((await fns.project_("aave", null, inv())) as unknown[][])[0][0]).toBe("field");
      supported.add("CustomFunctionsRuntime 1.4").add("ExcelApi 1.16");
      resetHostProbe();
      expect(await card("aave")).toMatchObject({ type: "Entity", text: "Aave" });
    } finally {
      delete global.Office;
      global.__CM_HOST__ = declared;
    }
  });
});

describe("cards go where projects go", () => {
  let aave: Card;
  let uniswap: Card;
  beforeAll(async () => {
    [aave, uniswap] = await Promise.all([card("aave"), card("uniswap")]);
  });

  it("are read by their Id in every function's project argument", async () => {
    const same = async (call: (p: unknown) => Promise<unknown>) => {
      const [byId, byCard] = await Promise.all([call("aave"), call(aave)]);
      expect(byCard).toEqual(byId);
    };
    await same((p) => Promise.resolve(fns.value_(p, "fees", "2024-03-01", null, inv())));
    await same((p) => fns.metric_([[p]], [["revenue"]], "2024-03-01", "2024-03-03", null, inv()));
    await same((p) => fns.statement_(p, null, null, null, inv()));
    await same((p) => fns.project_(p, "chains", inv()));
    await same((p) => fns.product_(p, "aave-v3", "chains", inv()));
    await same((p) =>
      fns.product_metric_(p, "aave-v3", [["fees"]], "2024-03-01", "2024-03-03", null, inv())
    );
    await same((p) => fns.metrics_(p, inv()));
    await same((p) => fns.aggregation_(p, "fees", "sum_30d", null, inv()));
    await same((p) => fns.aggregations_([[p]], [["fees"]], null, inv()));
    await same((p) => fns.breakdown_("fees", [[p]], "2024-03-01", "2024-03-31", null, inv()));
  });

  it("in a range: one column per card, as with ids", async () => {
    const byIds = await fns.metric_(
      [["aave"], ["uniswap"]],
      [["fees"]],
      "2024-03-01",
      "2024-03-02",
      null,
      inv()
    );
    const byCards = await fns.metric_(
      [[aave], [uniswap]],
      [["fees"]],
      "2024-03-01",
      "2024-03-02",
      null,
      inv()
    );
    expect(byCards).toEqual(byIds);
  });

  it("are refused, saying where a card goes, in an argument that is not a project", async () => {
    const error = await excelError(fns.value_("aave", aave, null, null, inv()));
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toBe(
      'metric must be text, not the card "Aave" (a card goes in a project argument)'
    );
  });

  it("without an Id field are refused with what to use instead", async () => {
    const stock = {
      type: "Entity",
      text: "Microsoft",
      properties: { Ticker: { type: "String", basicValue: "MSFT" } },
    };
    const error = await excelError(fns.value_(stock, "fees", null, null, inv()));
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toMatch(
      /the card "Microsoft" has no Id field; use a card from CRYPTO\.PROJECT/
    );
  });
});
