/**
 * The model behind one project's daily series. Every metric is a function of a few latent processes
 * (the market factor, the project's activity, its token price) so that metrics move together the way real
 * ones do: revenue = fees - supply-side fees, earnings = revenue - expenses, market cap = price x supply...
 *
 * Each process is generated forward from a fixed start with its own seeded generator, so a day's value
 * never depends on "today": moving the clock only adds days. Values are raw here (no nulls, no maintenance
 * lag); the dataset layers those on top.
 */
import { day, weekday } from "../util/days";
import { gaussian, hashString, mulberry32, rangeHash } from "../util/prng";
import { ANCHOR, logMarket } from "./market";
import { PROFILES, TOKEN_METRICS, type ProfileParams } from "./profiles";
import type { ProjectDef } from "./projects-catalog";

/** A daily series: values[i] is the value of day `start + i`; NaN means "no value" (null). */
export interface Series {
  start: number;
  values: Float64Array;
}

export function valueAt(series: Series, dayNumber: number): number {
  const i = dayNumber - series.start;
  return i >= 0 && i < series.values.length ? series.values[i] : NaN;
}

const TOKEN_METRIC_IDS: ReadonlySet<string> = new Set(TOKEN_METRICS);

type Generator = (d: number, random: () => number) => number;

/**
 * How a metric follows from the model's processes (formulas.ts). Passed in by the dataset, so that the
 * formulas can read the model's processes without the model importing them back.
 */
type MetricFormulas = (model: ProjectModel, metricId: string) => Series;

export class ProjectModel {
  readonly launch: number;
  readonly tokenLaunch: number | undefined;
  readonly archiveDay: number | undefined;
  /** Last day with data (today, the archive date, or today minus the maintenance lag). */
  readonly end: number;
  readonly params: ProfileParams;
  readonly dailyFees: number;
  readonly anchor: number;
  private readonly memo = new Map<string, Series>();
  private readonly beta: number;
  private readonly supply0: number;
  private readonly devScale: number;
  private activity?: Series;
  private idio?: Series;
  private devNoise?: Series;

  constructor(
    readonly def: ProjectDef,
    today: number,
    private readonly formulas: MetricFormulas
  ) {
    this.launch = day(def.launch);
    this.tokenLaunch = def.token ? day(def.token.launch) : undefined;
    this.archiveDay = def.archived ? day(def.archived.date) : undefined;
    let end = today - (def.maintenance?.lagDays ?? 0);
    if (this.archiveDay !== undefined) end = Math.min(end, this.archiveDay);
    this.end = end;
    this.params = PROFILES[def.profile];
    this.dailyFees = def.fees / 365;
    this.anchor = Math.max(ANCHOR, this.launch + 180);
    this.beta = this.constant("beta", 0.9, 1.5);
    this.supply0 = this.constant("supply0", 0.12, 0.45);
    this.devScale = Math.pow(10, this.constant("devs", 0.9, 2.6));
  }

  /** First day a metric can have data: the launch, or the token's launch for token metrics. */
  metricStart(metricId: string): number {
    if (TOKEN_METRIC_IDS.has(metricId)) {
      const tokenStart = this.tokenLaunch ?? this.launch;
      return metricId === "pf_fully_diluted" || metricId === "ps_fully_diluted"
        ? Math.max(tokenStart, this.launch + 6)
        : tokenStart;
    }
    return this.launch;
  }

  /** Raw daily series of a metric from its start to `end` (empty when the project starts later). */
  raw(metricId: string): Series {
    let series = this.memo.get(metricId);
    if (!series) {
      series = this.formulas(this, metricId);
      this.memo.set(metricId, series);
    }
    return series;
  }

  constant(name: string, min: number, max: number): number {
    return rangeHash(`${this.def.id}|${name}`, min, max);
  }

  build(
    metricId: string,
    generate: Generator,
    start = this.metricStart(metricId),
    end = this.end
  ): Series {
    const length = Math.max(0, end - start + 1);
    const values = new Float64Array(length);
    const random = mulberry32(hashString(`${this.def.id}|${metricId}`));
    for (let i = 0; i < length; i++) values[i] = generate(start + i, random);
    return { start, values };
  }

  /** Ornstein-Uhlenbeck noise, generated far enough to cover both the data and the anchor day. */
  private noise(name: string, start: number, keep: number, sigma: number): Series {
    let state = 0;
    return this.build(
      name,
      (_d, random) => (state = state * keep + sigma * gaussian(random)),
      start,
      Math.max(this.end, this.anchor, start)
    );
  }

  /** Project activity, 1 around the anchor day: adoption curve x market factor x own noise. */
  activityAt(d: number): number {
    if (!this.activity) {
      const noise = this.noise("~activity", this.launch, 0.985, 0.04);
      const log = (x: number) => {
        const adoption = 1 / (1 + Math.exp(-(x - this.launch - 180) / 90));
        return Math.log(adoption) + 0.7 * logMarket(x) + valueAt(noise, x);
      };
      const anchorLog = log(this.anchor);
      const values = new Float64Array(noise.values.length);
      for (let i = 0; i < values.length; i++) {
        const x = noise.start + i;
        // Archived projects collapse over their last month, as the real ones did.
        const collapse =
          this.archiveDay !== undefined && x > this.archiveDay - 30
            ? (x - this.archiveDay + 30) / 6
            : 0;
        values[i] = Math.exp(log(x) - anchorLog - collapse);
      }
      this.activity = { start: noise.start, values };
    }
    return valueAt(this.activity, d);
  }

  weekly(d: number, weekendFactor: number): number {
    return weekday(d) >= 5 ? weekendFactor : 1;
  }

  priceAt(d: number): number {
    const token = this.def.token;
    if (!token || this.tokenLaunch === undefined) return NaN;
    const anchor = Math.max(ANCHOR, this.tokenLaunch);
    if (!this.idio) this.idio = this.noise("~idio", this.tokenLaunch, 0.995, 0.03);
    const log =
      this.beta * (logMarket(d) - logMarket(anchor)) +
      valueAt(this.idio, d) -
      valueAt(this.idio, anchor);
    return token.price * Math.exp(log);
  }

  supplyAt(d: number): number {
    const token = this.def.token;
    if (!token || this.tokenLaunch === undefined) return NaN;
    const initial = this.supply0;
    return (
      token.maxSupply * (initial + (1 - initial) * (1 - Math.exp(-(d - this.tokenLaunch) / 1100)))
    );
  }

  developersAt(d: number): number {
    if (!this.devNoise) this.devNoise = this.noise("~devs", this.launch, 0.98, 0.03);
    const maturity = 0.5 + 0.5 * (1 - Math.exp(-(d - this.launch) / 365));
    return Math.max(1, Math.round(this.devScale * maturity * Math.exp(valueAt(this.devNoise, d))));
  }

  /** Fast reader of another metric's raw series (resolved once, not per day). */
  lookup(metricId: string): (d: number) => number {
    const series = this.raw(metricId);
    return (d) => {
      const i = d - series.start;
      return i >= 0 && i < series.values.length ? series.values[i] : NaN;
    };
  }

  /**
   * A metric computed from a trailing window of another one (sum and count of its values over the last
   * `days` days, nulls skipped), kept up to date as the window slides instead of re-summed every day.
   */
  windowed(
    metricId: string,
    source: string,
    days: number,
    fn: (sum: number, count: number, d: number) => number
  ): Series {
    const read = this.lookup(source);
    let sum = 0;
    let count = 0;
    let last = NaN;
    return this.build(metricId, (d) => {
      if (Number.isNaN(last)) {
        for (let x = d - days + 1; x <= d; x++) {
          const v = read(x);
          if (!Number.isNaN(v)) {
            sum += v;
            count++;
          }
        }
      } else {
        const added = read(d);
        const dropped = read(d - days);
        if (!Number.isNaN(added)) {
          sum += added;
          count++;
        }
        if (!Number.isNaN(dropped)) {
          sum -= dropped;
          count--;
        }
      }
      last = d;
      return fn(sum, count, d);
    });
  }
}
