/**
 * `npm run validate [-- path/to/manifest.xml]`: the offline checks (shared-runtime structure, Microsoft's
 * converter + unified-manifest schema), then Microsoft's online validator when the network allows it.
 * Exit 1 when a check finds a problem; an unreachable online validator is reported, not failed.
 */
import { readFileSync } from "fs";
import { resolve } from "path";
import { validateManifest } from "office-addin-manifest";
import { checkManifestStructure, validateWithMicrosoftSchema } from "./manifest-check";
import { messageOf } from "../client/errors";

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function describeNetworkFailure(error: unknown): string | undefined {
  const text = `${messageOf(error)} ${error instanceof Error ? messageOf(error.cause ?? "") : ""}`;
  const match =
    /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|fetch failed/.exec(text);
  return match ? match[0] : undefined;
}

async function main(): Promise<number> {
  const path = resolve(process.argv[2] ?? "manifest.xml");
  const xml = readFileSync(path, "utf8");
  let failed = false;

  const structure = checkManifestStructure(xml);
  print(`Shared-runtime structure: ${structure.length === 0 ? "ok" : "PROBLEMS"}`);
  structure.forEach((p) => print(`  - ${p}`));
  failed ||= structure.length > 0;

  const unified = await validateWithMicrosoftSchema(xml);
  print(
    `Converted unified manifest against the bundled schema: ${unified.problems.length === 0 ? "ok" : "PROBLEMS"}`
  );
  unified.problems.forEach((p) => print(`  - ${p}`));
  failed ||= unified.problems.length > 0;

  try {
    const online = await validateManifest(path);
    print(`Microsoft's online validator: ${online.isValid ? "ok" : "PROBLEMS"}`);
    for (const issue of online.report?.errors ?? [])
      print(`  - ${issue.title ?? ""}: ${issue.content ?? ""}`);
    failed ||= !online.isValid;
  } catch (error) {
    const network = describeNetworkFailure(error);
    if (!network) throw error;
    print(
      `Microsoft's online validator: not run, the validation service cannot be reached here (${network}).`
    );
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`validate failed: ${messageOf(error)}\n`);
    process.exit(1);
  }
);
