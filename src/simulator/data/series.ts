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
import { logMarket } from "./market";
import { PROFILES, type ProfileParams } from "./profiles";
import type { ProjectDef } from "./projects-catalog";

/** A daily series: values[i] is the value of day `start + i`; NaN means "no value" (null). */
export interface Series {
  start: number;
  values: Float64Array;
}

export function seriesEnd(series: Series): number {
  return series.start + series.values.length - 1;
}

export function valueAt(series: Series, dayNumber: number): number {
  const i = dayNumber - series.start;
  return i >= 0 && i < series.values.length ? series.values[i] : NaN;
}

const ANCHOR = day("2024-01-01");
const TOKEN_METRIC_IDS = new Set([
  "price",
  "market_cap_circulating",
  "market_cap_fully_diluted",
  "token_supply_circulating",
  "token_trading_volume",
  "tokenholders",
  "token_incentives",
  "pf_fully_diluted",
  "ps_fully_diluted",
]);

type Generator = (d: number, random: () => number) => number;

export class ProjectModel {
  readonly launch: number;
  readonly tokenLaunch: number | undefined;
  readonly archiveDay: number | undefined;
  /** Last day with data (today, the archive date, or today minus the maintenance lag). */
  readonly end: number;
  private readonly params: ProfileParams;
  private readonly dailyFees: number;
  private readonly anchor: number;
  private readonly memo = new Map<string, Series>();
  private readonly beta: number;
  private readonly supply0: number;
  private readonly devScale: number;
  private activity?: Series;
  private idio?: Series;
  private devNoise?: Series;

  constructor(
    readonly def: ProjectDef,
    today: number
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
      series = this.generate(metricId);
      this.memo.set(metricId, series);
    }
    return series;
  }

  private at(metricId: string, d: number): number {
    return valueAt(this.raw(metricId), d);
  }

  private constant(name: string, min: number, max: number): number {
    return rangeHash(`${this.def.id}|${name}`, min, max);
  }

  private build(
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
  private activityAt(d: number): number {
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

  private weekly(d: number, weekendFactor: number): number {
    return weekday(d) >= 5 ? weekendFactor : 1;
  }

  private priceAt(d: number): number {
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

  private supplyAt(d: number): number {
    const token = this.def.token;
    if (!token || this.tokenLaunch === undefined) return NaN;
    const initial = this.supply0;
    return (
      token.maxSupply * (initial + (1 - initial) * (1 - Math.exp(-(d - this.tokenLaunch) / 1100)))
    );
  }

  private developersAt(d: number): number {
    if (!this.devNoise) this.devNoise = this.noise("~devs", this.launch, 0.98, 0.03);
    const maturity = 0.5 + 0.5 * (1 - Math.exp(-(d - this.launch) / 365));
    return Math.max(1, Math.round(this.devScale * maturity * Math.exp(valueAt(this.devNoise, d))));
  }

  /** Fast reader of another metric's raw series (resolved once, not per day). */
  private lookup(metricId: string): (d: number) => number {
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
  private windowed(
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

  private generate(metricId: string): Series {
    const p = this.params;
    const F = this.dailyFees;
    const phase = this.constant(`phase:${metricId}`, 0, 2 * Math.PI);
    const noise = (r: () => number, sigma: number) =>
      Math.exp(sigma * gaussian(r) - (sigma * sigma) / 2);
    switch (metricId) {
      case "fees":
        return this.build(
          metricId,
          (d, r) => F * this.activityAt(d) * this.weekly(d, 0.85) * noise(r, 0.12)
        );
      case "fees_supply_side": {
        const fees = this.lookup("fees");
        return this.build(metricId, (d) => {
          const share = Math.min(
            0.98,
            p.supplyShare * (1 + 0.06 * Math.sin((2 * Math.PI * d) / 365 + phase))
          );
          return fees(d) * share;
        });
      }
      case "revenue": {
        const fees = this.lookup("fees");
        const supplySide = this.lookup("fees_supply_side");
        return this.build(metricId, (d) => fees(d) - supplySide(d));
      }
      case "gross_profit": {
        const costShare = this.constant("cost", 0, 0.15);
        const revenue = this.lookup("revenue");
        return this.build(metricId, (d) => revenue(d) * (1 - costShare));
      }
      case "token_incentives": {
        const ratio = this.constant("incentives", 0.05, 0.8);
        return this.build(
          metricId,
          (d, r) =>
            ratio *
            F *
            Math.sqrt(this.activityAt(d)) *
            Math.exp(-(d - this.anchor) / 1800) *
            noise(r, 0.1)
        );
      }
      case "expenses": {
        const opex = this.constant("opex", 0.08, 0.35);
        const incentives = this.def.token ? this.lookup("token_incentives") : () => NaN;
        return this.build(metricId, (d, r) => {
          const paid = incentives(d);
          const operating =
            opex * F * (0.4 + 0.6 * Math.sqrt(this.activityAt(d))) * (1 + 0.02 * gaussian(r));
          return (Number.isNaN(paid) ? 0 : paid) + operating;
        });
      }
      case "earnings": {
        const revenue = this.lookup("revenue");
        const expenses = this.lookup("expenses");
        return this.build(metricId, (d) => revenue(d) - expenses(d));
      }
      case "trading_volume": {
        const fees = this.lookup("fees");
        return this.build(metricId, (d, r) => (fees(d) / p.takeRate) * noise(r, 0.08));
      }
      case "tvl":
        return this.build(
          metricId,
          (d, r) => ((F * 365) / p.feeYield) * this.activityAt(d) * noise(r, 0.015)
        );
      case "active_loans": {
        const tvl = this.lookup("tvl");
        return this.build(
          metricId,
          (d) => tvl(d) * (0.55 + 0.12 * Math.sin((2 * Math.PI * d) / 500 + phase))
        );
      }
      case "treasury": {
        const reserve = this.constant("reserve", 0.1, 0.6);
        const price = this.def.token ? this.lookup("price") : () => NaN;
        const supply = this.def.token ? this.lookup("token_supply_circulating") : () => NaN;
        return this.build(metricId, (d) => {
          const tokens = 0.08 * supply(d) * price(d);
          return (
            (Number.isNaN(tokens) ? 0 : tokens) + reserve * F * 365 * Math.sqrt(this.activityAt(d))
          );
        });
      }
      case "price":
        return this.build(metricId, (d) => this.priceAt(d));
      case "token_supply_circulating":
        return this.build(metricId, (d) => this.supplyAt(d));
      case "market_cap_circulating": {
        const price = this.lookup("price");
        const supply = this.lookup("token_supply_circulating");
        return this.build(metricId, (d) => price(d) * supply(d));
      }
      case "market_cap_fully_diluted": {
        const price = this.lookup("price");
        const maxSupply = this.def.token?.maxSupply ?? NaN;
        return this.build(metricId, (d) => price(d) * maxSupply);
      }
      case "token_trading_volume": {
        const turnover = this.constant("turnover", 0.02, 0.12);
        const marketCap = this.lookup("market_cap_circulating");
        return this.build(
          metricId,
          (d, r) => marketCap(d) * turnover * this.weekly(d, 0.8) * noise(r, 0.35)
        );
      }
      case "tokenholders": {
        const scale = Math.pow(10, this.constant("holders", 4, 6.4));
        const start = this.metricStart(metricId);
        const anchorLog = logMarket(Math.max(ANCHOR, start));
        return this.build(metricId, (d) =>
          Math.round(
            scale *
              (0.02 + 0.98 * (1 - Math.exp(-(d - start) / 900))) *
              Math.exp(0.15 * (logMarket(d) - anchorLog))
          )
        );
      }
      case "pf_fully_diluted":
      case "ps_fully_diluted": {
        const marketCap = this.lookup("market_cap_fully_diluted");
        return this.windowed(
          metricId,
          metricId === "pf_fully_diluted" ? "fees" : "revenue",
          30,
          (sum, count, d) => {
            const annualised = (sum * 365) / Math.max(1, count);
            return annualised > 0 ? marketCap(d) / annualised : NaN;
          }
        );
      }
      case "active_developers":
        return this.build(metricId, (d) => this.developersAt(d));
      case "code_commits":
        return this.build(metricId, (d, r) =>
          Math.max(0, Math.round(this.developersAt(d) * 0.35 * this.weekly(d, 0.3) * noise(r, 0.4)))
        );
      case "user_dau":
        return this.build(metricId, (d, r) =>
          Math.max(
            1,
            Math.round(
              ((F * this.activityAt(d)) / p.feePerUser) * this.weekly(d, 0.9) * noise(r, 0.1)
            )
          )
        );
      case "user_wau":
        return this.windowed(metricId, "user_dau", 7, (sum, count) =>
          count > 0 ? Math.round((2.6 * sum) / count) : NaN
        );
      case "user_mau":
        return this.windowed(metricId, "user_dau", 30, (sum, count) =>
          count > 0 ? Math.round((6.5 * sum) / count) : NaN
        );
      case "transaction_count": {
        const users = this.lookup("user_dau");
        return this.build(metricId, (d, r) => Math.round(users(d) * p.txPerUser * noise(r, 0.08)));
      }
      default:
        return { start: this.launch, values: new Float64Array(0) };
    }
  }
}
