/**
 * PROJECT without a field, where the host takes entity values: the project's card. The card's data is
 * assembled in batches (card-batch.ts) and cached whole by the engine until the next daily update or a
 * Refresh, so a warm card costs no request; the entity is built from it on each call (entity.ts) and checked
 * against what Excel takes (src/sheet/entity.ts) before it leaves.
 */
import type { Project } from "../../client";
import { validateEntity } from "../../sheet/entity";
import type { FnContext } from "../context";
import { invalid } from "../result";
import { cardBatchOf } from "./card-batch";
import type { ProjectCard } from "./card-model";
import { projectEntity } from "./card-entity";

async function projectCardData(ctx: FnContext, project: Project): Promise<ProjectCard> {
  const loaded = await ctx.engine.derived(
    `card:${project.projectId}:${ctx.today}`,
    () => cardBatchOf(ctx.runtime).request(ctx, project),
    // A card built from answers served stale (the service failing) is shown, never kept as fresh.
    (card) => card.stale === undefined
  );
  ctx.trace.noteLoaded(`card of ${project.projectId}`, loaded);
  return loaded.value;
}

export async function projectCard(
  ctx: FnContext,
  project: Project
): Promise<Excel.EntityCellValue> {
  const entity = projectEntity(await projectCardData(ctx, project));
  const problems = validateEntity(entity);
  if (problems.length > 0) {
    throw invalid(
      `the card of ${project.projectId} is malformed (${problems[0]}); see Diagnostics`
    );
  }
  return entity;
}
