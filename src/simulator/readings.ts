/**
 * Readings of the interface: for every place where the interface leaves a shape, a parameter name or a
 * behaviour open, a switch that says which reading the simulator takes. The first value of each switch is
 * its default, and the default is the least helpful reading a real service may take: a client tested
 * against the defaults has met the hardest reading, and the conformance test (test/conformance/) runs the
 * whole formula corpus under every other value too, failing on any answer that differs.
 *
 * Switches of kind "beyond" are not readings of the interface but answers a broken or odd service sends
 * (rows split by a member nobody asked for, rows dated in the future, an unusable catalogue entry): their
 * default is the clean answer, and the same corpus runs under them.
 *
 * One source: the CLI (`--reading name=value`), the README table and the conformance matrix are derived
 * from READING_SWITCHES.
 */

export const READING_VALUES = {
  availability: ["string", "list", "listed", "object"],
  sectors: ["names", "ids", "objects", "wrapped"],
  productMember: ["none", "product_id", "business_line", "version"],
  timestamps: ["offset", "utc", "date"],
  values: ["mixed", "strings", "numbers"],
  unknownParams: ["refuse", "ignore"],
  dateNames: ["defined", "usage", "both"],
  breakdownDates: ["start_date", "start", "both"],
  breakdownProjects: ["listed", "all"],
  breakdownRows: ["names", "full"],
  aggregationsProjects: ["required", "optional"],
  aggregationsRows: ["wide", "rows", "opaque"],
  errorBodies: ["empty", "json"],
  retryAfter: ["none", "seconds"],
  preflight: ["refuse", "answer"],
  v1Envelope: ["bare", "data"],
  catalogueEntries: ["clean", "unusable"],
  unaskedSplit: ["none", "chain", "business_line", "version", "product_id", "every_chain"],
  futureRows: ["none", "far"],
  statementDates: ["start", "end"],
  statementWeeks: ["iso", "sunday"],
  breakdownRepeats: ["none", "twice"],
} as const;

export type ReadingName = keyof typeof READING_VALUES;
export type Readings = { -readonly [K in ReadingName]: (typeof READING_VALUES)[K][number] };

interface ReadingSwitch<K extends ReadingName = ReadingName> {
  name: K;
  /** "loose": the interface leaves this open; "beyond": what an odd or broken service sends. */
  kind: "loose" | "beyond";
  /** Where in the interface (src/client/INTERFACE.md numbering). */
  where: string;
  /** What the interface leaves open, in a few words. */
  open: string;
  /** Each value, the default first, with what the simulator then sends. */
  values: Readonly<Record<(typeof READING_VALUES)[K][number], string>>;
}

type Table = { [K in ReadingName]: ReadingSwitch<K> };

const TABLE: Table = {
  availability: {
    name: "availability",
    kind: "loose",
    where: "§2.2, §2.3",
    open: "metric_availability is declared a string (§2.2) or an object (§2.3); its inner shape is not shown",
    values: {
      string:
        'the declared string, a comma list of the available metrics ("fees,revenue"; an object listing the available ones on §2.3)',
      list: "a list of the available metric ids",
      listed: "an object listing the available metrics only (id → true)",
      object: "an object of every metric, id → true or false",
    },
  },
  sectors: {
    name: "sectors",
    kind: "loose",
    where: "§2.2, §2.3",
    open: "market_sectors is an object whose inner shape is not shown",
    values: {
      names: 'an object of sector id → sector name ({"lending": "Lending"})',
      ids: "a list of sector ids",
      objects: "a list of {market_sector_id, name}",
      wrapped: 'an object holding the list of ids ({"market_sector_ids": ["lending"]})',
    },
  },
  productMember: {
    name: "productMember",
    kind: "loose",
    where: "§2.4, §4.3",
    open: "aggregate_by=product_id is allowed, but §2.4 names no product member (only chain, business_line, version)",
    values: {
      none: "rows broken down by product carry no member saying which product",
      product_id: "the product in a product_id member",
      business_line: "the product in the business_line member",
      version: "the product in the version member",
    },
  },
  timestamps: {
    name: "timestamps",
    kind: "loose",
    where: "§2.4, §2.5, §2.7, §2.10",
    open: 'timestamp and date are strings ("date of the data point"), format not shown',
    values: {
      offset: "the day's local midnight with an offset east of UTC (2024-01-02T00:00:00+02:00)",
      utc: "UTC midnight (2024-01-02T00:00:00.000Z), as the real service is seen to send",
      date: "the date alone (2024-01-02)",
    },
  },
  values: {
    name: "values",
    kind: "loose",
    where: "§2.4, §2.6, §2.7, §2.10",
    open: "values are declared strings; real answers hold numbers",
    values: {
      mixed:
        "numbers, and numeric strings for about 15 % of project/metric pairs (as the real service)",
      strings: "every value a numeric string, as declared",
      numbers: "every value a JSON number",
    },
  },
  unknownParams: {
    name: "unknownParams",
    kind: "loose",
    where: "§4",
    open: "what a parameter the operation does not list does",
    values: {
      refuse: "400 naming the parameter",
      ignore: "ignored",
    },
  },
  dateNames: {
    name: "dateNames",
    kind: "loose",
    where: "§4.3, §4.7, §4.11, §4.14",
    open: "usage examples send start_date/end_date where the parameters are named start/end",
    values: {
      defined: "start and end only (start_date, end_date are unknown parameters there)",
      usage:
        "start_date and end_date only, the usage examples' names (start, end are unknown parameters there)",
      both: "either name",
    },
  },
  breakdownDates: {
    name: "breakdownDates",
    kind: "loose",
    where: "§4.13, §4.14",
    open: "the breakdown's usage shows start_date/end_date; its parameter list is not shown",
    values: {
      start_date: "start_date and end_date only",
      start: "start and end only, the names of the other metric operations",
      both: "either name",
    },
  },
  breakdownProjects: {
    name: "breakdownProjects",
    kind: "loose",
    where: "§4.13",
    open: "whether project_ids may be omitted or be `all` is not shown",
    values: {
      listed: "listed ids only: `all` is an unknown id, an omitted project_ids a 400",
      all: "omitted or `all`: every project with the metric",
    },
  },
  breakdownRows: {
    name: "breakdownRows",
    kind: "loose",
    where: "§4.13",
    open: "the row shape is not shown",
    values: {
      names: "{project_name, metric_id, value}: projects by name, no id, no share, no dates",
      full: "{project_id, project_name, metric_id, value, share, start_date, end_date}",
    },
  },
  aggregationsProjects: {
    name: "aggregationsProjects",
    kind: "loose",
    where: "§4.12",
    open: "project_ids is declared required and described optional",
    values: {
      required: "a missing project_ids is a 400 (`all` selects every project, as described)",
      optional: "omitted or `all`: every project",
    },
  },
  aggregationsRows: {
    name: "aggregationsRows",
    kind: "loose",
    where: "§4.12",
    open: "the row shape is not shown",
    values: {
      wide: "one row per project and metric, one member per aggregation name",
      rows: "the rows of §2.6 (one per project, metric and aggregation)",
      opaque: "an object keyed by project id, the client's reading of which is not given",
    },
  },
  errorBodies: {
    name: "errorBodies",
    kind: "loose",
    where: "§7",
    open: "bodies of the 400, 401, 404 and 429 answers are not shown",
    values: {
      empty: "no body",
      json: '{"message": …} naming the parameter or id',
    },
  },
  retryAfter: {
    name: "retryAfter",
    kind: "loose",
    where: "§8",
    open: "no Retry-After is documented on 429",
    values: {
      none: "429s without Retry-After",
      seconds: "Retry-After in seconds",
    },
  },
  preflight: {
    name: "preflight",
    kind: "loose",
    where: "§4, §5",
    open: "every operation is a GET with a bearer key; nothing says whether a browser's CORS preflight (OPTIONS) is answered",
    values: {
      refuse:
        "an OPTIONS is refused (405, Allow: GET) like any method but GET: a page on another origin cannot send its key",
      answer:
        "an OPTIONS is answered (204) allowing GET with Authorization from any origin, private-network access included",
    },
  },
  v1Envelope: {
    name: "v1Envelope",
    kind: "loose",
    where: "§9",
    open: "the fields and shape of version 1 answers are not shown",
    values: {
      bare: "a bare JSON list",
      data: "a {data: [...]} object, as v2",
    },
  },
  catalogueEntries: {
    name: "catalogueEntries",
    kind: "beyond",
    where: "§2.1, §2.8, §2.9",
    open: "(an entry of a catalogue that breaks its declared shape)",
    values: {
      clean: "every entry as declared",
      unusable:
        "one unusable entry in each catalogue list: a project and a product summary without an id, a sector and a metric without an id",
    },
  },
  unaskedSplit: {
    name: "unaskedSplit",
    kind: "beyond",
    where: "§2.4, §2.5, §2.10",
    open: "(rows split by a member nobody asked for)",
    values: {
      none: "one row per project and day, as asked",
      chain:
        "the metrics that split by chain in one row per chain (the others in a row without member)",
      business_line:
        "the metrics that split by product in one row per product, labelled business_line",
      version: "the metrics that split by product in one row per product, labelled version",
      product_id: "the metrics that split by product in one row per product, labelled product_id",
      every_chain:
        "the metrics that split by chain in one row per chain of the project, whatever chain_ids asked (a filter ignored, its rows labelled)",
    },
  },
  futureRows: {
    name: "futureRows",
    kind: "beyond",
    where: "§2.4, §2.5, §2.10",
    open: "(rows dated after the service's latest possible day)",
    values: {
      none: "no row after today",
      far: "one more row per series dated 2099-12-31",
    },
  },
  statementDates: {
    name: "statementDates",
    kind: "loose",
    where: "§2.7",
    open: 'a statement row\'s timestamp is the "timestamp of the data point": which day of its period is not shown',
    values: {
      start: "the period's first day",
      end: "the period's last day (weeks dated by their Sunday)",
    },
  },
  statementWeeks: {
    name: "statementWeeks",
    kind: "loose",
    where: "§2.7, §4.5",
    open: "timestamp_granularity=week: which days make a week is not shown",
    values: {
      iso: "ISO weeks, Monday to Sunday",
      sunday:
        "weeks from Sunday to Saturday, as in the United States (each row's subheading says its days)",
    },
  },
  breakdownRepeats: {
    name: "breakdownRepeats",
    kind: "beyond",
    where: "§4.13",
    open: "(a breakdown row sent more than once)",
    values: {
      none: "one row per project",
      twice: "every project's row sent twice, identical",
    },
  },
};

/** Every switch, in the order of the README table and the conformance matrix. */
export const READING_SWITCHES: readonly ReadingSwitch[] = (
  Object.keys(READING_VALUES) as ReadingName[]
).map((name) => TABLE[name] as unknown as ReadingSwitch);

export const DEFAULT_READINGS: Readonly<Readings> = Object.freeze(
  Object.fromEntries(
    (Object.keys(READING_VALUES) as ReadingName[]).map((name) => [name, READING_VALUES[name][0]])
  ) as Readings
);

function isReadingName(name: string): name is ReadingName {
  return Object.prototype.hasOwnProperty.call(READING_VALUES, name);
}

/** Readings over `base`; throws a RangeError naming the switch for an unknown name or value. */
export function mergeReadings(base: Readonly<Readings>, update: Partial<Readings>): Readings {
  const next: Readings = { ...base };
  for (const [name, value] of Object.entries(update)) {
    if (!isReadingName(name))
      throw new RangeError(
        `Unknown reading "${name}"; readings: ${Object.keys(READING_VALUES).join(", ")}`
      );
    if (value === undefined) {
      (next as Record<string, string>)[name] = DEFAULT_READINGS[name];
      continue;
    }
    const allowed = READING_VALUES[name] as readonly string[];
    if (!allowed.includes(value))
      throw new RangeError(`Reading ${name} takes ${allowed.join(", ")}, got "${String(value)}"`);
    (next as Record<string, string>)[name] = value;
  }
  return next;
}

/** "name=value" (the CLI's form) → one reading; throws a RangeError saying what is allowed. */
export function parseReading(text: string): Partial<Readings> {
  const at = text.indexOf("=");
  const name = at < 0 ? text : text.slice(0, at);
  const value = at < 0 ? "" : text.slice(at + 1);
  if (!isReadingName(name))
    throw new RangeError(
      `Unknown reading "${name}"; readings: ${Object.keys(READING_VALUES).join(", ")}`
    );
  const reading = { [name]: value } as Partial<Readings>;
  mergeReadings(DEFAULT_READINGS, reading);
  return reading;
}

/** The README's readings table (src/simulator/README.md holds it verbatim; a test keeps them one). */
export function readingsTable(): string {
  const lines = [
    "| switch | where | open in the interface | values (default first) |",
    "|---|---|---|---|",
  ];
  for (const s of READING_SWITCHES) {
    const values = Object.entries(s.values as Record<string, string>)
      .map(([value, what], i) => `\`${value}\`${i === 0 ? " (default)" : ""}: ${what}`)
      .join("<br>");
    lines.push(`| \`${s.name}\` | ${s.where} | ${s.open} | ${values} |`);
  }
  return lines.join("\n");
}
