/**
 * Offline checks of manifest.xml: the structure a shared-runtime custom-functions add-in needs (which no
 * schema says), and Microsoft's own validation path that works offline: office-addin-manifest-converter
 * turns the XML into the unified JSON manifest, validated against the JSON schema that @microsoft/app-manifest
 * bundles. (The XML XSDs ship in no npm package; `office-addin-manifest validate` needs the network.)
 */
import { DOMParser, type Element } from "@xmldom/xmldom";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { convert } from "office-addin-manifest-converter";
import { AppManifestUtils, type TeamsManifest } from "@microsoft/app-manifest";

/**
 * The converter emits `getStartedMessages` (from <GetStarted>) while labelling its output 1.17, a version whose
 * schema does not know that member; 1.23 is the first schema that does, so we convert to and validate against it.
 */
export const UNIFIED_SCHEMA_VERSION = "1.23";

function elements(root: Element, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS("*", localName));
}

function residOf(el: Element | undefined): string | undefined {
  return el?.getAttribute("resid") ?? undefined;
}

function childResid(el: Element, childName: string): string | undefined {
  return residOf(elements(el, childName)[0]);
}

/** Problems with the shared-runtime structure of the manifest; empty when it is sound. */
export function checkManifestStructure(xml: string, expectedNamespace = "CRYPTO"): string[] {
  const problems: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") problems.push(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, "text/xml");
  const root = doc.documentElement;
  if (!root || root.localName !== "OfficeApp")
    return [...problems, "root element is not <OfficeApp>"];

  const sets = elements(root, "Set").map((s) => s.getAttribute("Name"));
  if (!sets.includes("SharedRuntime"))
    problems.push("requirement set SharedRuntime is not declared");

  const urls = new Map<string, string>();
  const strings = new Map<string, string>();
  const images = new Map<string, string>();
  for (const [name, map] of [
    ["Url", urls],
    ["String", strings],
    ["Image", images],
  ] as const) {
    for (const el of elements(root, name)) {
      const id = el.getAttribute("id");
      if (!id) continue; // <bt:Image size resid> references have no id
      if (id.length > 32) problems.push(`resource id "${id}" is longer than 32 characters`);
      if (urls.has(id) || strings.has(id) || images.has(id))
        problems.push(`resource id "${id}" is defined twice`);
      map.set(id, el.getAttribute("DefaultValue") ?? "");
    }
  }

  const referenced = new Set<string>();
  for (const el of elements(root, "*")) {
    const resid = el.getAttribute("resid");
    if (!resid) continue;
    referenced.add(resid);
    if (!urls.has(resid) && !strings.has(resid) && !images.has(resid))
      problems.push(`<${el.localName} resid="${resid}"> names no resource`);
  }
  for (const id of [...urls.keys(), ...strings.keys(), ...images.keys()]) {
    if (!referenced.has(id)) problems.push(`resource "${id}" is defined but never used`);
  }

  const runtimes = elements(root, "Runtime");
  if (runtimes.length !== 1) problems.push(`expected one <Runtime>, found ${runtimes.length}`);
  const runtime = runtimes[0];
  if (runtime && runtime.getAttribute("lifetime") !== "long")
    problems.push('the <Runtime> is not lifetime="long"');
  const pageResid = residOf(runtime);

  const cf = elements(root, "ExtensionPoint").find(
    (e) => e.getAttribute("xsi:type") === "CustomFunctions"
  );
  if (!cf) {
    problems.push("no CustomFunctions extension point");
  } else {
    const page = elements(cf, "Page")[0];
    if (page && childResid(page, "SourceLocation") !== pageResid)
      problems.push("the custom functions <Page> is not the shared runtime page");
    const ns = strings.get(childResid(cf, "Namespace") ?? "");
    if (ns !== expectedNamespace)
      problems.push(`custom functions namespace is "${ns}", not "${expectedNamespace}"`);
    const metadata = urls.get(
      childResid(elements(cf, "Metadata")[0] ?? cf, "SourceLocation") ?? ""
    );
    if (!metadata?.endsWith("/functions.json"))
      problems.push("custom functions metadata is not functions.json");
  }
  const functionFile = elements(root, "FunctionFile")[0];
  if (residOf(functionFile) !== pageResid)
    problems.push(
      "<FunctionFile> is not the shared runtime page, so ribbon commands would run elsewhere"
    );
  for (const action of elements(root, "Action")) {
    if (
      action.getAttribute("xsi:type") === "ShowTaskpane" &&
      childResid(action, "SourceLocation") !== pageResid
    )
      problems.push("a ShowTaskpane action opens a page other than the shared runtime page");
  }
  const defaultPage = elements(elements(root, "DefaultSettings")[0] ?? root, "SourceLocation")[0];
  if (defaultPage?.getAttribute("DefaultValue") !== urls.get(pageResid ?? ""))
    problems.push("<DefaultSettings> SourceLocation differs from the shared runtime page URL");

  const allUrls = [
    ...urls.values(),
    ...images.values(),
    ...elements(root, "*")
      .map((e) => {
        const name = e.localName ?? "";
        return name.endsWith("Url") || name === "SourceLocation"
          ? e.getAttribute("DefaultValue")
          : null;
      })
      .filter((v): v is string => !!v),
  ];
  const origins = new Set<string>();
  for (const u of allUrls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      problems.push(`"${u}" is not a URL`);
      continue;
    }
    if (parsed.protocol !== "https:") problems.push(`"${u}" is not https`);
    origins.add(parsed.origin);
  }
  if (origins.size > 1) problems.push(`URLs point at several origins: ${[...origins].join(", ")}`);
  return problems;
}

type UnifiedSchema = Parameters<typeof AppManifestUtils.validateAgainstSchema>[1];

function schemaUrl(): string {
  return `https://developer.microsoft.com/json-schemas/teams/v${UNIFIED_SCHEMA_VERSION}/MicrosoftTeams.schema.json#`;
}

/** Validates a unified manifest object against the schema bundled in @microsoft/app-manifest (no network). */
export async function validateUnifiedManifest(manifest: unknown): Promise<string[]> {
  const file = require.resolve(
    `@microsoft/app-manifest/build/json-schemas/teams/v${UNIFIED_SCHEMA_VERSION}/MicrosoftTeams.schema.json`
  );
  const schema = JSON.parse(readFileSync(file, "utf8")) as UnifiedSchema;
  return AppManifestUtils.validateAgainstSchema(manifest as TeamsManifest, schema);
}

/** The unified JSON manifest that Microsoft's converter makes of the XML, and its schema problems. */
export async function validateWithMicrosoftSchema(
  xml: string
): Promise<{ manifest: unknown; problems: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "cm-manifest-"));
  try {
    const xmlPath = join(dir, "manifest.xml");
    writeFileSync(xmlPath, xml);
    const out = join(dir, "json");
    await convert(xmlPath, out, false, schemaUrl(), UNIFIED_SCHEMA_VERSION, false);
    const manifest: unknown = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    return { manifest, problems: await validateUnifiedManifest(manifest) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
