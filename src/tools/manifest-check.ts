/**
 * Offline checks of the two manifests. manifest.xml: the structure a shared-runtime custom-functions add-in
 * needs (which no schema says), and Microsoft's own validation path that works offline for XML:
 * office-addin-manifest-converter turns it into a unified manifest, validated against the JSON schema that
 * @microsoft/app-manifest bundles. (The XML XSDs ship in no npm package; `office-addin-manifest validate`
 * posts XML to an online service.) manifest.json, the unified manifest: the same kind of structural checks,
 * its schema (bundled, for its own manifestVersion), and agreement with the XML (compareManifests).
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
const UNIFIED_SCHEMA_VERSION = "1.23";

function elements(root: Element, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS("*", localName));
}

function residOf(el: Element | undefined): string | undefined {
  return el?.getAttribute("resid") ?? undefined;
}

function childResid(el: Element, childName: string): string | undefined {
  return residOf(elements(el, childName)[0]);
}

/**
 * Both manifest forms must name https URLs only, all on one origin (the add-in's host): adds to `problems` what
 * breaks that and returns the origins met, which the unified form checks against its validDomains.
 */
function checkUrls(urls: Iterable<string>, problems: string[]): Set<string> {
  const origins = new Set<string>();
  for (const u of urls) {
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
  return origins;
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
  checkUrls(allUrls, problems);
  return problems;
}

type UnifiedSchema = Parameters<typeof AppManifestUtils.validateAgainstSchema>[1];

function schemaUrl(): string {
  return `https://developer.microsoft.com/json-schemas/teams/v${UNIFIED_SCHEMA_VERSION}/MicrosoftTeams.schema.json#`;
}

/**
 * Validates a unified manifest object against the schema bundled in @microsoft/app-manifest (no network): the
 * schema of its own manifestVersion, else of UNIFIED_SCHEMA_VERSION.
 */
export async function validateUnifiedManifest(manifest: unknown): Promise<string[]> {
  const declared = isObject(manifest) ? manifest.manifestVersion : undefined;
  const version =
    typeof declared === "string" && /^\d+\.\d+$/.test(declared) ? declared : UNIFIED_SCHEMA_VERSION;
  const file = require.resolve(
    `@microsoft/app-manifest/build/json-schemas/teams/v${version}/MicrosoftTeams.schema.json`
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

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Every absolute URL the manifest holds (icons in the app package are relative and not among them). */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string" && /^[a-z]+:\/\//i.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const item of value) urlsIn(item, out);
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) if (key !== "$schema") urlsIn(item, out);
  return out;
}

/** The unified manifest's one long-lived runtime and what hangs on it. */
function sharedRuntimeOf(manifest: Json): Json | undefined {
  return list(manifest.extensions)
    .flatMap((e) => list(e.runtimes))
    .find((r) => r.lifetime === "long");
}

/**
 * Problems with the unified manifest's shared-runtime structure; empty when it is sound. What the schema does
 * not say: one long-lived runtime holds the custom functions (namespace, functions.json), the functions script,
 * the page, and every action the ribbon's buttons run; every URL is https on one origin, the valid domain.
 */
export function checkUnifiedStructure(manifest: unknown, expectedNamespace = "CRYPTO"): string[] {
  if (!isObject(manifest)) return ["the manifest is not a JSON object"];
  const problems: string[] = [];
  const extensions = list(manifest.extensions);
  if (extensions.length !== 1) problems.push(`expected one extension, found ${extensions.length}`);
  const runtimes = extensions.flatMap((e) => list(e.runtimes));
  if (runtimes.length !== 1)
    problems.push(`expected one runtime (the shared one), found ${runtimes.length}`);
  const runtime = sharedRuntimeOf(manifest);
  if (!runtime) return [...problems, 'no runtime is lifetime "long": nothing would be shared'];
  const capabilities = [...extensions, runtime].flatMap((e) =>
    list(isObject(e.requirements) ? e.requirements.capabilities : undefined)
  );
  if (!capabilities.some((c) => c.name === "SharedRuntime"))
    problems.push("requirement SharedRuntime is not declared");
  const code = isObject(runtime.code) ? runtime.code : {};
  if (!text(code.page)?.endsWith(".html")) problems.push("the shared runtime has no page");
  if (!text(code.script)?.endsWith("/functions.js"))
    problems.push("the shared runtime's script is not functions.js");
  const functions = isObject(runtime.customFunctions) ? runtime.customFunctions : undefined;
  if (!functions) problems.push("the shared runtime declares no custom functions");
  else {
    const ns = isObject(functions.namespace) ? functions.namespace : {};
    if (ns.id !== expectedNamespace || ns.name !== expectedNamespace)
      problems.push(
        `custom functions namespace is "${String(ns.id)}"/"${String(ns.name)}", not "${expectedNamespace}"`
      );
    if (!text(functions.metadataUrl)?.endsWith("/functions.json"))
      problems.push("custom functions metadata is not functions.json");
  }
  const actions = new Set(list(runtime.actions).map((a) => a.id));
  const controls = extensions
    .flatMap((e) => list(e.ribbons))
    .flatMap((r) => list(r.tabs))
    .flatMap((t) => list(t.groups))
    .flatMap((g) => list(g.controls));
  for (const c of controls) {
    if (!actions.has(c.actionId))
      problems.push(
        `ribbon control "${String(c.id)}" runs "${String(c.actionId)}", which is no action of the shared runtime`
      );
  }
  const origins = checkUrls(urlsIn(manifest), problems);
  const domains = Array.isArray(manifest.validDomains) ? manifest.validDomains : [];
  if (origins.size === 1 && !domains.includes([...origins][0]))
    problems.push(`validDomains does not list the add-in's origin ${[...origins][0]}`);
  return problems;
}

function xmlResource(root: Element, kind: "Url" | "String", id: string): string | undefined {
  const el = elements(root, kind).find((e) => e.getAttribute("id") === id);
  return el?.getAttribute("DefaultValue") ?? undefined;
}

/**
 * Where the XML and the unified manifest disagree; empty when they describe one add-in: the same id and
 * version, origin, page, functions script, functions metadata, namespace, taskpane and ribbon function.
 */
export function compareManifests(xml: string, manifest: unknown): string[] {
  if (!isObject(manifest)) return ["the unified manifest is not a JSON object"];
  const root = new DOMParser().parseFromString(xml, "text/xml").documentElement;
  if (!root) return ["the XML manifest does not parse"];
  const runtime = sharedRuntimeOf(manifest) ?? {};
  const code = isObject(runtime.code) ? runtime.code : {};
  const functions = isObject(runtime.customFunctions) ? runtime.customFunctions : {};
  const namespace = isObject(functions.namespace) ? functions.namespace.id : undefined;
  const actions = list(runtime.actions);
  const first = (name: string) => elements(root, name)[0]?.textContent?.trim();
  const pairs: Array<[string, unknown, unknown]> = [
    ["id", first("Id"), manifest.id],
    ["version", first("Version"), `${String(manifest.version)}.0`],
    [
      "origin",
      first("AppDomain"),
      Array.isArray(manifest.validDomains) ? manifest.validDomains[0] : undefined,
    ],
    ["page", xmlResource(root, "Url", "Taskpane.Url"), code.page],
    ["functions script", xmlResource(root, "Url", "Functions.Script.Url"), code.script],
    [
      "functions metadata",
      xmlResource(root, "Url", "Functions.Metadata.Url"),
      functions.metadataUrl,
    ],
    ["namespace", xmlResource(root, "String", "Functions.Namespace"), namespace],
    ["taskpane", first("TaskpaneId"), actions.find((a) => a.type === "openPage")?.id],
    [
      "ribbon function",
      elements(root, "FunctionName")
        .map((e) => e.textContent?.trim())
        .join(","),
      actions
        .filter((a) => a.type === "executeFunction")
        .map((a) => a.id)
        .join(","),
    ],
  ];
  return pairs
    .filter(([, a, b]) => a !== b)
    .map(
      ([what, a, b]) => `${what}: "${String(a)}" in the XML, "${String(b)}" in the unified manifest`
    );
}
