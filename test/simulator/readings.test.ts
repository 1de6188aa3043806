/**
 * The reading switches: each value answers as README's readings table says, the default is the first
 * (least helpful) value, and a row split or a future row keeps the figures a client must arrive at.
 */
import { readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { readingsTable } from "../../src/simulator/readings";
import { gunzipSync } from "node:zlib";
import {
  DEFAULT_READINGS,
  DEMO_API_KEY,
  READING_SWITCHES,
  READING_VALUES,
  type RunningSimulator,
} from "../../src/simulator";
import { expectClose, get, getList, getObject, num, start, sum, type Row } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start({ duplicateRows: 0 });
});
afterAll(() => sim.close());
afterEach(() => sim.setKnobs({ readings: undefined, fault: null }));

describe("the switches", () => {
  it("are listed in the simulator's README exactly as readingsTable() gives them", () => {
    const readme = readFileSync(join(__dirname, "../../src/simulator/README.md"), "utf8");
    const block = /<!-- readings-table -->\n([\s\S]*?)\n<!-- \/readings-table -->/.exec(readme);
    expect(block?.[1]).toBe(readingsTable());
  });

  it("default to their first value, and every switch is described value by value", () => {
    for (const s of READING_SWITCHES) {
      const values = READING_VALUES[s.name] as readonly string[];
      expect(DEFAULT_READINGS[s.name]).toBe(values[0]);
      expect(Object.keys(s.values)).toEqual([...values]);
      expect(s.where).toMatch(/§/);
    }
  });

  it("refuse an unknown switch or value by name", () => {
    expect(() => sim.setKnobs({ readings: { timestamps: "epoch" as never } })).toThrow(
      /timestamps takes offset, utc, date/
    );
    expect(() => sim.setKnobs({ readings: { moods: "x" } as never })).toThrow(/Unknown reading/);
  });
});

describe("open shapes of the project detail", () => {
  it("sends metric_availability as the declared string, a list, the available ones, or every one", async () => {
    const forms: Record<string, unknown> = {};
    for (const value of READING_VALUES.availability) {
      sim.setKnobs({ readings: { availability: value } });
      forms[value] = (await getObject(sim, "/v2/projects/bitcoin")).metric_availability;
    }
    const available = String(forms.string).split(",");
    expect(available).toContain("fees");
    expect(available).not.toContain("tvl");
    expect(forms.list).toEqual(available);
    expect(forms.listed).toEqual(Object.fromEntries(available.map((id) => [id, true])));
    const every = forms.object as Record<string, boolean>;
    expect(every.tvl).toBe(false);
    expect(Object.keys(every).filter((id) => every[id])).toEqual(available);
  });

  it("sends market_sectors as an object of names, a list of ids, a list of objects or a wrapped list", async () => {
    const forms: unknown[] = [];
    for (const value of READING_VALUES.sectors) {
      sim.setKnobs({ readings: { sectors: value } });
      forms.push((await getObject(sim, "/v2/projects/aave")).market_sectors);
    }
    expect(forms).toEqual([
      { lending: "Lending" },
      ["lending"],
      [{ market_sector_id: "lending", name: "Lending" }],
      { market_sector_ids: ["lending"] },
    ]);
  });
});

describe("timestamps and values", () => {
  it("writes a day as local midnight east of UTC, UTC midnight or the date alone, on every series", async () => {
    const paths = [
      "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-02&end=2025-06-02",
      "/v2/metrics/fees?project_ids=aave&start=2025-06-02&end=2025-06-02",
      "/v2/projects/aave/products/aave-v3/metrics?metric_ids=fees&start=2025-06-02&end=2025-06-02",
    ];
    const seen: Record<string, unknown[]> = {};
    for (const value of READING_VALUES.timestamps) {
      sim.setKnobs({ readings: { timestamps: value } });
      seen[value] = [];
      for (const path of paths) {
        const row = (await getList(sim, path)).data[0];
        seen[value].push(row.timestamp ?? row.date);
      }
    }
    expect(seen).toEqual({
      offset: Array(3).fill("2025-06-02T00:00:00+02:00"),
      utc: Array(3).fill("2025-06-02T00:00:00.000Z"),
      date: Array(3).fill("2025-06-02"),
    });
  });

  it("sends values as strings, numbers, or both as the real service does", async () => {
    const path = "/v2/metrics/fees?start=2025-06-01&end=2025-06-01&project_ids=all";
    const types = async (): Promise<Set<string>> =>
      new Set((await getList(sim, path)).data.map((r) => typeof r.value));
    expect(await types()).toEqual(new Set(["number", "string"]));
    sim.setKnobs({ readings: { values: "strings" } });
    expect(await types()).toEqual(new Set(["string"]));
    sim.setKnobs({ readings: { values: "numbers" } });
    expect(await types()).toEqual(new Set(["number"]));
  });
});

describe("parameters", () => {
  it("ignores a parameter the operation does not take under unknownParams=ignore", async () => {
    const path = "/v2/metrics/fees?project_ids=aave&start=2025-06-01&end=2025-06-03";
    expect((await get(sim, `${path}&order_direction=asc`)).status).toBe(400);
    sim.setKnobs({ readings: { unknownParams: "ignore" } });
    const ignored = await getList(sim, `${path}&order_direction=asc&colour=blue`);
    // Ignored means ignored: §4.11 takes no order_direction, so the rows stay newest first.
    expect(ignored.data).toEqual((await getList(sim, path)).data);
    expect(String(ignored.data[0].timestamp).slice(0, 10)).toBe("2025-06-03");
  });
});

describe("beyond the interface", () => {
  it("appends an unusable entry to each catalogue list under catalogueEntries=unusable", async () => {
    sim.setKnobs({ readings: { catalogueEntries: "unusable" } });
    const projects = (await getList(sim, "/v2/projects")).data;
    expect(projects[projects.length - 1]).toEqual({ name: "Unnamed listing", project_id: null });
    const withBroken = projects.find((p) =>
      (p.products as Row[] | undefined)?.some((x) => x.product_id === null)
    );
    expect(withBroken).toBeDefined();
    expect((await getList(sim, "/v2/market-sectors")).data.at(-1)).toMatchObject({ id: null });
    expect((await getList(sim, "/v2/metrics")).data.at(-1)).toMatchObject({ metric_id: null });
  });

  it.each(["chain", "version", "business_line", "product_id"] as const)(
    "splits a day by %s unasked into parts that add up to the total, exactly for whole numbers",
    async (member) => {
      const path =
        "/v2/projects/aave/metrics?metric_ids=fees,transaction_count,price&start=2025-06-01&end=2025-06-03";
      const whole = (await getList(sim, path)).data;
      sim.setKnobs({ readings: { unaskedSplit: member } });
      const split = (await getList(sim, path)).data;
      for (const day of ["2025-06-01", "2025-06-02", "2025-06-03"]) {
        const total = whole.find((r) => String(r.timestamp).startsWith(day))!;
        const rows = split.filter((r) => String(r.timestamp).startsWith(day));
        const parts = rows.filter((r) => member in r);
        expect(new Set(parts.map((r) => r[member])).size).toBe(parts.length);
        expect(parts.length).toBeGreaterThan(1);
        expectClose(sum(parts.map((r) => num(r.fees))), num(total.fees));
        expect(sum(parts.map((r) => num(r.transaction_count)))).toBe(num(total.transaction_count));
        // Price does not split: it stays in a row without the member.
        const rest = rows.filter((r) => !(member in r));
        expect(rest.map((r) => r.price)).toEqual([total.price]);
      }
      const metric = (
        await getList(sim, "/v2/metrics/fees?project_ids=aave&start=2025-06-01&end=2025-06-01")
      ).data;
      expect(metric.length).toBeGreaterThan(1);
      expect(metric.every((r) => member in r)).toBe(true);
    }
  );

  it("adds one row per series dated 2099-12-31 under futureRows=far", async () => {
    sim.setKnobs({ readings: { futureRows: "far", timestamps: "date" } });
    const rows = (
      await getList(
        sim,
        "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-01&end=2025-06-03"
      )
    ).data;
    expect(rows.map((r) => r.timestamp)).toEqual([
      "2099-12-31",
      "2025-06-03",
      "2025-06-02",
      "2025-06-01",
    ]);
    const long = (
      await getList(
        sim,
        "/v2/metrics/fees?project_ids=aave,uniswap&start=2025-06-03&end=2025-06-03"
      )
    ).data;
    expect(long.map((r) => r.timestamp)).toEqual([
      "2099-12-31",
      "2099-12-31",
      "2025-06-03",
      "2025-06-03",
    ]);
  });

  it("sends a gzip header and garbage under the corrupt-gzip fault", async () => {
    sim.setKnobs({ fault: "corrupt-gzip" });
    const response = await fetch(`${sim.url}/v2/metrics`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}`, "Accept-Encoding": "identity" },
    });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    await expect(response.text()).rejects.toThrow();
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const url = new URL(`${sim.url}/v2/metrics`);
      httpGet(url, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks)));
      }).on("error", reject);
    });
    expect(raw.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(() => gunzipSync(raw)).toThrow();
  });
});
