/**
 * How each metric follows from a project's latent processes (activity, token price and supply, developers)
 * and from the other metrics: the business logic of the demo dataset, one case per metric.
 */
import { gaussian } from "../util/prng";
import { ANCHOR, logMarket } from "./market";
import type { ProjectModel, Series } from "./series";

export function generateMetric(m: ProjectModel, metricId: string): Series {
  const p = m.params;
  const F = m.dailyFees;
  const phase = m.constant(`phase:${metricId}`, 0, 2 * Math.PI);
  const noise = (r: () => number, sigma: number) =>
    Math.exp(sigma * gaussian(r) - (sigma * sigma) / 2);
  switch (metricId) {
    case "fees":
      return m.build(metricId, (d, r) => F * m.activityAt(d) * m.weekly(d, 0.85) * noise(r, 0.12));
    case "fees_supply_side": {
      const fees = m.lookup("fees");
      return m.build(metricId, (d) => {
        const share = Math.min(
          0.98,
          p.supplyShare * (1 + 0.06 * Math.sin((2 * Math.PI * d) / 365 + phase))
        );
        return fees(d) * share;
      });
    }
    case "revenue": {
      const fees = m.lookup("fees");
      const supplySide = m.lookup("fees_supply_side");
      return m.build(metricId, (d) => fees(d) - supplySide(d));
    }
    case "gross_profit": {
      const costShare = m.constant("cost", 0, 0.15);
      const revenue = m.lookup("revenue");
      return m.build(metricId, (d) => revenue(d) * (1 - costShare));
    }
    case "token_incentives": {
      const ratio = m.constant("incentives", 0.05, 0.8);
      return m.build(
        metricId,
        (d, r) =>
          ratio * F * Math.sqrt(m.activityAt(d)) * Math.exp(-(d - m.anchor) / 1800) * noise(r, 0.1)
      );
    }
    case "expenses": {
      const opex = m.constant("opex", 0.08, 0.35);
      const incentives = m.def.token ? m.lookup("token_incentives") : () => NaN;
      return m.build(metricId, (d, r) => {
        const paid = incentives(d);
        const operating =
          opex * F * (0.4 + 0.6 * Math.sqrt(m.activityAt(d))) * (1 + 0.02 * gaussian(r));
        return (Number.isNaN(paid) ? 0 : paid) + operating;
      });
    }
    case "earnings": {
      const revenue = m.lookup("revenue");
      const expenses = m.lookup("expenses");
      return m.build(metricId, (d) => revenue(d) - expenses(d));
    }
    case "trading_volume": {
      const fees = m.lookup("fees");
      return m.build(metricId, (d, r) => (fees(d) / p.takeRate) * noise(r, 0.08));
    }
    case "tvl":
      return m.build(
        metricId,
        (d, r) => ((F * 365) / p.feeYield) * m.activityAt(d) * noise(r, 0.015)
      );
    case "active_loans": {
      const tvl = m.lookup("tvl");
      return m.build(
        metricId,
        (d) => tvl(d) * (0.55 + 0.12 * Math.sin((2 * Math.PI * d) / 500 + phase))
      );
    }
    case "treasury": {
      const reserve = m.constant("reserve", 0.1, 0.6);
      const price = m.def.token ? m.lookup("price") : () => NaN;
      const supply = m.def.token ? m.lookup("token_supply_circulating") : () => NaN;
      return m.build(metricId, (d) => {
        const tokens = 0.08 * supply(d) * price(d);
        return (Number.isNaN(tokens) ? 0 : tokens) + reserve * F * 365 * Math.sqrt(m.activityAt(d));
      });
    }
    case "price":
      return m.build(metricId, (d) => m.priceAt(d));
    case "token_supply_circulating":
      return m.build(metricId, (d) => m.supplyAt(d));
    case "market_cap_circulating": {
      const price = m.lookup("price");
      const supply = m.lookup("token_supply_circulating");
      return m.build(metricId, (d) => price(d) * supply(d));
    }
    case "market_cap_fully_diluted": {
      const price = m.lookup("price");
      const maxSupply = m.def.token?.maxSupply ?? NaN;
      return m.build(metricId, (d) => price(d) * maxSupply);
    }
    case "token_trading_volume": {
      const turnover = m.constant("turnover", 0.02, 0.12);
      const marketCap = m.lookup("market_cap_circulating");
      return m.build(
        metricId,
        (d, r) => marketCap(d) * turnover * m.weekly(d, 0.8) * noise(r, 0.35)
      );
    }
    case "tokenholders": {
      const scale = Math.pow(10, m.constant("holders", 4, 6.4));
      const start = m.metricStart(metricId);
      const anchorLog = logMarket(Math.max(ANCHOR, start));
      return m.build(metricId, (d) =>
        Math.round(
          scale *
            (0.02 + 0.98 * (1 - Math.exp(-(d - start) / 900))) *
            Math.exp(0.15 * (logMarket(d) - anchorLog))
        )
      );
    }
    case "pf_fully_diluted":
    case "ps_fully_diluted": {
      const marketCap = m.lookup("market_cap_fully_diluted");
      return m.windowed(
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
      return m.build(metricId, (d) => m.developersAt(d));
    case "code_commits":
      return m.build(metricId, (d, r) =>
        Math.max(0, Math.round(m.developersAt(d) * 0.35 * m.weekly(d, 0.3) * noise(r, 0.4)))
      );
    case "user_dau":
      return m.build(metricId, (d, r) =>
        Math.max(
          1,
          Math.round(((F * m.activityAt(d)) / p.feePerUser) * m.weekly(d, 0.9) * noise(r, 0.1))
        )
      );
    case "user_wau":
      return m.windowed(metricId, "user_dau", 7, (sum, count) =>
        count > 0 ? Math.round((2.6 * sum) / count) : NaN
      );
    case "user_mau":
      return m.windowed(metricId, "user_dau", 30, (sum, count) =>
        count > 0 ? Math.round((6.5 * sum) / count) : NaN
      );
    case "transaction_count": {
      const users = m.lookup("user_dau");
      return m.build(metricId, (d, r) => Math.round(users(d) * p.txPerUser * noise(r, 0.08)));
    }
    case "fees_cumulative": {
      const fees = m.lookup("fees");
      let total = 0;
      return m.build(metricId, (d) => {
        const v = fees(d);
        if (!Number.isNaN(v)) total += v;
        return total;
      });
    }
    case "revenue_annualized":
      return m.windowed(metricId, "revenue", 30, (sum, count) =>
        count > 0 ? (sum * 365) / count : NaN
      );
    default:
      return { start: m.launch, values: new Float64Array(0) };
  }
}
