/**
 * The workbooks of Excel at scale: 100,000 VALUE cells, 10,000 METRIC spills of a year of daily values, 2,000
 * cells taking a project card, and a burst of formula previews. Plain cell lists, as in workloads.ts; sizes are
 * parameters so the tests run the same sheets (or smaller ones).
 */
import { addDays } from "../../client";
import { createDataset } from "../../simulator";
import {
  BENCH_TODAY,
  LARGE_UNIVERSE,
  largeProjects,
  liveProjects,
  MODEL_DATE,
  MODEL_METRICS,
  type BenchCell,
} from "./workloads";

/** Days of the 100,000-cell model: the large model (500 projects × 20 metrics) on 10 consecutive days. */
export const BIG_VALUE_DAYS = 10;

/** 500 projects × 20 metrics × 10 days = 100,000 VALUE cells (a fund's coverage list, two weeks of closes). */
export function bigValueSheet(
  projects = 500,
  metrics: readonly string[] = MODEL_METRICS,
  days = BIG_VALUE_DAYS,
  last = MODEL_DATE
): BenchCell[] {
  const ids = largeProjects(projects);
  const cells: BenchCell[] = [];
  for (let d = 0; d < days; d++) {
    const date = addDays(last, d - days + 1);
    for (const project of ids)
      for (const metric of metrics) cells.push({ fn: "VALUE", project, metric, date });
  }
  return cells;
}

/** A year of daily values: the spill of each METRIC cell of the 10,000-spill workbook. */
export const SPILL_DAYS = 365;

/** 500 projects × 20 metrics = 10,000 METRIC cells, each spilling a year of daily values (date and value). */
export function bigSpillSheet(
  projects = 500,
  metrics: readonly string[] = MODEL_METRICS,
  end = MODEL_DATE
): BenchCell[] {
  const start = addDays(end, -(SPILL_DAYS - 1));
  return largeProjects(projects).flatMap((project) =>
    metrics.map((metric): BenchCell => ({ fn: "METRIC", project, metric, start, end }))
  );
}

/**
 * The minimum requests for one metric asked of `projects` projects over `days` days, by the engine's rules:
 * one request of every project when the catalogue × the days fits one answer (wholeUniverseMaxRows), else one
 * per chunk of ids.
 */
export function minimumPerMetric(
  projects: number,
  days: number,
  universe: number,
  maxIdsPerRequest: number,
  wholeUniverseMaxRows: number
): number {
  const chunks = Math.ceil(projects / maxIdsPerRequest);
  const whole = wholeUniverseMaxRows > 0 && universe * days <= wholeUniverseMaxRows ? 1 : chunks;
  return Math.min(chunks, whole);
}

/** A cell of the card sheet: VALUE of the project in `card` (a card's cell, or the project's id). */
export interface CardCell {
  project: string;
  metric: string;
  /** Omitted: the latest value (=CRYPTO.VALUE(A1,"revenue")). */
  date?: string;
}

let liveIds: string[] | undefined;

/**
 * The first `count` live projects of the large universe. An archived project's latest value is read in a
 * second wave (after an empty recent answer), whose requests depend on when each first answer arrives: two
 * runs of the same id cells differ by a few requests, which would hide what a card argument costs.
 */
function liveLargeProjects(count: number): string[] {
  liveIds ??= createDataset(BENCH_TODAY, { projects: LARGE_UNIVERSE })
    .projects.filter((p) => !p.isArchived)
    .map((p) => p.id);
  return liveIds.slice(0, count);
}

/**
 * 50 cards × 20 metrics × (the latest value and the model date) = 2,000 cells, each taking its project from a
 * card: =CRYPTO.VALUE(A1,"revenue") and =CRYPTO.VALUE(A1,"revenue","2026-09-30") with A1 a PROJECT card.
 */
export function cardSheet(
  cards = 50,
  metrics: readonly string[] = MODEL_METRICS,
  date = MODEL_DATE
): CardCell[] {
  return liveLargeProjects(cards).flatMap((project) =>
    metrics.flatMap((metric): CardCell[] => [
      { project, metric },
      { project, metric, date },
    ])
  );
}

/**
 * 50 formulas as a user types them into a model, previewed by Excel while being typed: every function of the
 * add-in at least once, then values, series, statements and cards of more projects. Each has a value on the
 * simulator (no argument error), so every preview either shows what Enter will show or a placeholder.
 */
export function previewFormulas(count = 50): string[] {
  const everyFunction = [
    '=CRYPTO.VALUE("aave","revenue","2024-03-31")',
    '=CRYPTO.ASOF("aave","tvl","2024-03-31")',
    '=CRYPTO.COMPS("aave,uniswap","revenue:ttm, fees:30d","2024-03-31")',
    '=CRYPTO.METRIC("aave","fees,revenue","2024-01-01","2024-01-10")',
    '=CRYPTO.STATEMENT("aave","year","max","layout=long")',
    '=CRYPTO.PROJECTS("sectors=lending")',
    '=CRYPTO.PROJECT("aave","chains")',
    '=CRYPTO.PROJECT("uniswap")',
    '=CRYPTO.PRODUCT("aave","aave-v3")',
    '=CRYPTO.PRODUCT_METRIC("aave","aave-v3","fees","2024-01-01","2024-01-05")',
    '=CRYPTO.METRICS("aave")',
    "=CRYPTO.SECTORS()",
    '=CRYPTO.SECTOR("lending")',
    '=CRYPTO.AGGREGATION("aave","revenue","ath")',
    '=CRYPTO.AGGREGATIONS("aave,uniswap","fees")',
    '=CRYPTO.BREAKDOWN("fees","aave,uniswap,gmx","2024-01-01","2024-03-31")',
  ];
  const projects = liveProjects(20);
  const more: string[] = [];
  for (let i = 0; more.length < count - everyFunction.length; i++) {
    const project = projects[i % projects.length];
    const metric = MODEL_METRICS[i % 4];
    switch (i % 4) {
      case 0:
        more.push(`=CRYPTO.VALUE("${project}","${metric}","${MODEL_DATE}")`);
        break;
      case 1:
        more.push(`=CRYPTO.METRIC("${project}","${metric}","2026-07-01","${MODEL_DATE}")`);
        break;
      case 2:
        more.push(`=CRYPTO.VALUE("${project}","${metric}","${MODEL_DATE}","period=quarter")`);
        break;
      default:
        more.push(`=CRYPTO.STATEMENT("${project}")`);
    }
  }
  return [...everyFunction, ...more].slice(0, count);
}
