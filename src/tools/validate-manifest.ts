/**
 * `npm run validate [-- path/to/manifest.xml|manifest.json …]`: checks the add-in's manifests. Without paths,
 * the repository's manifest.xml and manifest.json (the development pair); give a build's pair, e.g.
 * `dist/web/manifest.xml dist/web/manifest.json`, to check what ships.
 * - manifest.xml: the shared-runtime structure, Microsoft's converter + unified-manifest schema (offline), then
 *   Microsoft's online validator when the network allows it.
 * - manifest.json: the shared-runtime structure, the schema bundled for its manifestVersion, and Microsoft's
 *   validator (office-addin-manifest, which validates unified manifests offline).
 * - Both given: that they describe one add-in (compareManifests).
 * Exit 1 when a check finds a problem; an unreachable online validator is reported, not failed.
 */
import { readFileSync } from "fs";
import { resolve } from "path";
import { validateManifest } from "office-addin-manifest";
import {
  checkManifestStructure,
  checkUnifiedStructure,
  compareManifests,
  validateUnifiedManifest,
  validateWithMicrosoftSchema,
} from "./manifest-check";
import { messageOf } from "../client";

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Prints a check's outcome and its problems; true when it found any. */
function report(title: string, problems: readonly string[]): boolean {
  print(`${title}: ${problems.length === 0 ? "ok" : "PROBLEMS"}`);
  problems.forEach((p) => print(`  - ${p}`));
  return problems.length > 0;
}

function describeNetworkFailure(error: unknown): string | undefined {
  const text = `${messageOf(error)} ${error instanceof Error ? messageOf(error.cause ?? "") : ""}`;
  const match =
    /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|fetch failed/.exec(text);
  return match ? match[0] : undefined;
}

/** Microsoft's validator: offline for a unified manifest, an online service for XML. */
async function microsoftValidator(path: string, online: boolean): Promise<boolean> {
  const name = online ? "Microsoft's online validator" : "Microsoft's validator (offline)";
  try {
    const result = await validateManifest(path);
    const issues = (result.report?.errors ?? []).map(
      (issue) => `${issue.title ?? ""}: ${issue.content ?? ""}`
    );
    return report(name, result.isValid ? [] : issues.length > 0 ? issues : ["not valid"]);
  } catch (error) {
    const network = describeNetworkFailure(error);
    if (!online || !network) throw error;
    print(`${name}: not run, the validation service cannot be reached here (${network}).`);
    return false;
  }
}

async function checkXml(path: string, xml: string): Promise<boolean> {
  let failed = report("Shared-runtime structure", checkManifestStructure(xml));
  const unified = await validateWithMicrosoftSchema(xml);
  failed =
    report("Converted unified manifest against the bundled schema", unified.problems) || failed;
  return (await microsoftValidator(path, true)) || failed;
}

async function checkJson(path: string, manifest: unknown): Promise<boolean> {
  let failed = report("Shared-runtime structure", checkUnifiedStructure(manifest));
  failed = report("Bundled schema", await validateUnifiedManifest(manifest)) || failed;
  return (await microsoftValidator(path, false)) || failed;
}

async function main(): Promise<number> {
  const given = process.argv.slice(2);
  const paths = (given.length > 0 ? given : ["manifest.xml", "manifest.json"]).map((p) =>
    resolve(p)
  );
  let failed = false;
  let xml: string | undefined;
  let json: unknown;
  for (const path of paths) {
    print(`${path}`);
    const content = readFileSync(path, "utf8");
    if (path.endsWith(".json")) {
      json = JSON.parse(content);
      failed = (await checkJson(path, json)) || failed;
    } else {
      xml = content;
      failed = (await checkXml(path, content)) || failed;
    }
  }
  if (xml !== undefined && json !== undefined)
    failed = report("The XML and unified manifests agree", compareManifests(xml, json)) || failed;
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`validate failed: ${messageOf(error)}\n`);
    process.exit(1);
  }
);
