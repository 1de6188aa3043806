/** An archived project's figures described as what they are: its last days, dated by the archive. */
import { archivedMessage, DEFAULT_VARIANT } from "../../engine";
import type { Project } from "../../client";
import type { FnContext } from "../context";
import { FunctionError, type ErrorCell } from "../result";
import { latestRead } from "./latest";
import { run } from "./reads";

/** What to do instead of reading an archived project's aggregates. */
const ARCHIVED_ADVICE =
  "its aggregates describe its last days; VALUE or METRIC with dates read its history";

/** The last day with data of an archived project's metric ("archived since"), when it can be read. */
async function lastDayOf(
  ctx: FnContext,
  projectId: string,
  metricId: string
): Promise<number | undefined> {
  try {
    return (
      await run(
        latestRead(
          ctx,
          { projectId, metricId, variant: DEFAULT_VARIANT },
          `${projectId} ${metricId}`
        )
      )
    )?.day;
  } catch (error) {
    if (error instanceof FunctionError) return undefined;
    throw error;
  }
}

export async function archivedCell(
  ctx: FnContext,
  project: Project,
  metricId: string | undefined,
  advice = ARCHIVED_ADVICE
): Promise<ErrorCell> {
  const last =
    metricId === undefined ? undefined : await lastDayOf(ctx, project.projectId, metricId);
  return { error: "na", message: archivedMessage(project, last, advice) };
}
