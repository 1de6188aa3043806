// @ts-check
/**
 * The add-in's two manifests from one source. Excel on the web, on Windows (Microsoft 365, 2501+) and on Mac
 * (16.103+) take the unified JSON manifest (manifest.json); perpetual Office and older builds take the XML
 * manifest (manifest.xml). Both describe one add-in: the same id and version, the same origin, one long-lived
 * shared runtime (the taskpane page) that holds the custom functions, the taskpane and the ribbon, the same
 * functions metadata (functions.json) and namespace, the same ribbon buttons.
 *
 * SOURCE below is that one source. webpack.config.js renders both for the build's origin (development or
 * ADDIN_ORIGIN) once functions.json is generated; the repository's manifest.xml and manifest.json are the
 * development renderings (a test keeps them in step: UPDATE_MANIFESTS=1 npx jest test/tools/manifest.test.ts
 * rewrites them). Plain JavaScript, like src/help/render-help.js: webpack.config.js runs it at build time.
 *
 * Microsoft's converter (office-addin-manifest-converter) is not used to make the JSON: it leaves the custom
 * functions out and puts the ribbon's actions in a second, short-lived runtime, so they would not share the
 * functions' client, cache and rate limiter. The layout here follows Microsoft's shared-runtime sample
 * (Office-Add-in-samples, Samples/excel-shared-runtime-scenario/manifest.json).
 */

/**
 * Unified manifest schema version. 1.25 is the version of Microsoft's shared-runtime custom functions sample;
 * @microsoft/app-manifest bundles its schema, so the manifest validates offline.
 */
const UNIFIED_SCHEMA_VERSION = "1.25";

/** Everything both manifests say. Paths are relative to the add-in's origin. */
const SOURCE = {
  id: "6f1d8c52-3b7e-4c0a-9e2d-7a4b51c9e0f3",
  provider: "Cryptometrics",
  locale: "en-US",
  name: "Cryptometrics for Excel",
  description:
    "Crypto project fundamentals (revenue, fees, TVL, users, statements) as Excel functions in the CRYPTO namespace.",
  /** Short description of the unified manifest (at most 80 characters). */
  shortDescription: "Crypto project fundamentals as Excel functions in the CRYPTO namespace.",
  /** The unified manifest's accent colour (the icon's background in Microsoft 365 lists). */
  accentColor: "#230201",
  namespace: "CRYPTO",
  /** The one long-lived page: functions, taskpane and ribbon commands share its runtime. */
  page: "taskpane.html",
  functionsScript: "functions.js",
  functionsMetadata: "functions.json",
  help: "help.html",
  icons: {
    16: "assets/icon-16.png",
    32: "assets/icon-32.png",
    64: "assets/icon-64.png",
    80: "assets/icon-80.png",
  },
  ribbon: {
    tab: "TabData",
    group: { id: "Cryptometrics.Group", label: "Cryptometrics" },
    taskpaneId: "Cryptometrics.Taskpane",
    open: {
      id: "Cryptometrics.OpenButton",
      label: "Open Cryptometrics",
      tooltip:
        "Set your API key, browse projects and metrics, build formulas and insert statements.",
    },
    refresh: {
      id: "Cryptometrics.RefreshButton",
      label: "Refresh",
      tooltip:
        "Fetch fresh figures for every CRYPTO formula in the workbook (clears the cache, recalculates).",
      /** The function the ribbon runs (Office.actions.associate in src/commands/commands.ts). */
      functionName: "refreshAll",
    },
  },
  getStarted: {
    title: "Cryptometrics is ready",
    description:
      'Open Cryptometrics on the Data tab to set your API key, then type =CRYPTO.VALUE("aave","revenue") in a cell.',
  },
};

/** "https://host:port/" (trailing slash) from an origin given with or without one. */
function base(origin) {
  const url = new URL(origin);
  if (url.protocol !== "https:")
    throw new Error(`the add-in's origin must be https, got "${origin}"`);
  return `${url.origin}/`;
}

/** Text for an XML attribute value. */
function attr(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * The `<bt:…>` elements of one list under <Resources>, one a line at that list's indent: the lists are all
 * (id, value) pairs, and every value goes through attr (URLs included: they hold no character it changes).
 * @param {string} tag
 * @param {[string, string][]} entries
 * @returns {string}
 */
function resourceLines(tag, entries) {
  return entries
    .map(([id, value]) => `        <bt:${tag} id="${id}" DefaultValue="${attr(value)}"/>`)
    .join("\n");
}

/**
 * The XML manifest (add-in only manifest) for `origin`, version "x.y.z" written "x.y.z.0".
 * @param {string} origin
 * @param {string} version
 * @returns {string}
 */
function renderXml(origin, version) {
  const at = base(origin);
  const s = SOURCE;
  const r = s.ribbon;
  const icons = `<Icon>
                  <bt:Image size="16" resid="Icon.16x16"/>
                  <bt:Image size="32" resid="Icon.32x32"/>
                  <bt:Image size="80" resid="Icon.80x80"/>
                </Icon>`;
  const controlIcons = icons.replace(/\n/g, "\n  ");
  /** A ribbon button: its label and tooltip are the resources `${resid}.Label` and `${resid}.Tooltip`. */
  const button = (
    /** @type {string} */ id,
    /** @type {string} */ resid,
    /** @type {string} */ action
  ) =>
    `<Control xsi:type="Button" id="${id}">
                  <Label resid="${resid}.Label"/>
                  <Supertip>
                    <Title resid="${resid}.Label"/>
                    <Description resid="${resid}.Tooltip"/>
                  </Supertip>
                  ${controlIcons}
                  ${action}
                </Control>`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!--
  Cryptometrics for Excel: one shared runtime (a long-lived page, Taskpane.Url) serves the custom functions,
  the taskpane and the ribbon commands, so they share one client, one cache and one rate limiter.
  Generated, with its unified twin manifest.json, from src/tools/manifest/manifests.js (edit it there). This
  copy names the development server; builds write one for their own origin (webpack.config.js).
-->
<OfficeApp xmlns="http://schemas.microsoft.com/office/appforoffice/1.1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:bt="http://schemas.microsoft.com/office/officeappbasictypes/1.0"
  xmlns:ov="http://schemas.microsoft.com/office/taskpaneappversionoverrides" xsi:type="TaskPaneApp">
  <Id>${s.id}</Id>
  <Version>${version}.0</Version>
  <ProviderName>${attr(s.provider)}</ProviderName>
  <DefaultLocale>${s.locale}</DefaultLocale>
  <DisplayName DefaultValue="${attr(s.name)}"/>
  <Description DefaultValue="${attr(s.description)}"/>
  <IconUrl DefaultValue="${at}${s.icons[32]}"/>
  <HighResolutionIconUrl DefaultValue="${at}${s.icons[64]}"/>
  <SupportUrl DefaultValue="${at}${s.help}"/>
  <AppDomains>
    <AppDomain>${new URL(at).origin}</AppDomain>
  </AppDomains>
  <Hosts>
    <Host Name="Workbook"/>
  </Hosts>
  <Requirements>
    <Sets DefaultMinVersion="1.1">
      <Set Name="SharedRuntime" MinVersion="1.1"/>
    </Sets>
  </Requirements>
  <DefaultSettings>
    <SourceLocation DefaultValue="${at}${s.page}"/>
  </DefaultSettings>
  <Permissions>ReadWriteDocument</Permissions>
  <VersionOverrides xmlns="http://schemas.microsoft.com/office/taskpaneappversionoverrides" xsi:type="VersionOverridesV1_0">
    <Hosts>
      <Host xsi:type="Workbook">
        <Runtimes>
          <Runtime resid="Taskpane.Url" lifetime="long"/>
        </Runtimes>
        <AllFormFactors>
          <ExtensionPoint xsi:type="CustomFunctions">
            <Script>
              <SourceLocation resid="Functions.Script.Url"/>
            </Script>
            <Page>
              <SourceLocation resid="Taskpane.Url"/>
            </Page>
            <Metadata>
              <SourceLocation resid="Functions.Metadata.Url"/>
            </Metadata>
            <Namespace resid="Functions.Namespace"/>
          </ExtensionPoint>
        </AllFormFactors>
        <DesktopFormFactor>
          <GetStarted>
            <Title resid="GetStarted.Title"/>
            <Description resid="GetStarted.Description"/>
            <LearnMoreUrl resid="GetStarted.LearnMoreUrl"/>
          </GetStarted>
          <FunctionFile resid="Taskpane.Url"/>
          <ExtensionPoint xsi:type="PrimaryCommandSurface">
            <OfficeTab id="${r.tab}">
              <Group id="${r.group.id}">
                <Label resid="Group.Label"/>
                ${icons}
                ${button(
                  r.open.id,
                  "OpenButton",
                  `<Action xsi:type="ShowTaskpane">
                    <TaskpaneId>${r.taskpaneId}</TaskpaneId>
                    <SourceLocation resid="Taskpane.Url"/>
                  </Action>`
                )}
                ${button(
                  r.refresh.id,
                  "RefreshButton",
                  `<Action xsi:type="ExecuteFunction">
                    <FunctionName>${r.refresh.functionName}</FunctionName>
                  </Action>`
                )}
              </Group>
            </OfficeTab>
          </ExtensionPoint>
        </DesktopFormFactor>
      </Host>
    </Hosts>
    <Resources>
      <bt:Images>
${resourceLines(
  "Image",
  [16, 32, 80].map((n) => [`Icon.${n}x${n}`, `${at}${s.icons[n]}`])
)}
      </bt:Images>
      <bt:Urls>
${resourceLines("Url", [
  ["Functions.Script.Url", `${at}${s.functionsScript}`],
  ["Functions.Metadata.Url", `${at}${s.functionsMetadata}`],
  ["Taskpane.Url", `${at}${s.page}`],
  ["GetStarted.LearnMoreUrl", `${at}${s.help}`],
])}
      </bt:Urls>
      <bt:ShortStrings>
${resourceLines("String", [
  ["Functions.Namespace", s.namespace],
  ["GetStarted.Title", s.getStarted.title],
  ["Group.Label", r.group.label],
  ["OpenButton.Label", r.open.label],
  ["RefreshButton.Label", r.refresh.label],
])}
      </bt:ShortStrings>
      <bt:LongStrings>
${resourceLines("String", [
  ["GetStarted.Description", s.getStarted.description],
  ["OpenButton.Tooltip", r.open.tooltip],
  ["RefreshButton.Tooltip", r.refresh.tooltip],
])}
      </bt:LongStrings>
    </Resources>
  </VersionOverrides>
</OfficeApp>
`;
}

/**
 * The unified JSON manifest for `origin`. `functionsMetadata` is the functions.json the build serves at
 * metadataUrl: what it declares about data types is declared here too, and a build without functions fails.
 * @param {string} origin
 * @param {string} version
 * @param {{ functions?: unknown[], allowCustomDataForDataTypeAny?: boolean }} functionsMetadata
 * @returns {Record<string, unknown>}
 */
function renderUnified(origin, version, functionsMetadata) {
  if (!Array.isArray(functionsMetadata.functions) || functionsMetadata.functions.length === 0)
    throw new Error("functions.json declares no function: the manifest would register none");
  const at = base(origin);
  const s = SOURCE;
  const r = s.ribbon;
  const iconSet = [16, 32, 80].map((size) => ({ size, url: `${at}${s.icons[size]}` }));
  const sharedRuntime = { capabilities: [{ name: "SharedRuntime", minVersion: "1.1" }] };
  const button = (control, actionId) => ({
    id: control.id,
    type: "button",
    label: control.label,
    icons: iconSet,
    supertip: { title: control.label, description: control.tooltip },
    actionId,
  });
  return {
    $schema: `https://developer.microsoft.com/json-schemas/teams/v${UNIFIED_SCHEMA_VERSION}/MicrosoftTeams.schema.json`,
    manifestVersion: UNIFIED_SCHEMA_VERSION,
    version,
    id: s.id,
    localizationInfo: { defaultLanguageTag: s.locale.toLowerCase() },
    developer: {
      name: s.provider,
      websiteUrl: `${at}${s.help}`,
      privacyUrl: `${at}${s.help}`,
      termsOfUseUrl: `${at}${s.help}`,
    },
    name: { short: s.name, full: s.name },
    description: { short: s.shortDescription, full: s.description },
    // Relative: the files of the app package (zip) with this manifest.
    icons: { outline: s.icons[32], color: s.icons[64] },
    accentColor: s.accentColor,
    validDomains: [new URL(at).origin],
    showLoadingIndicator: false,
    isFullScreen: false,
    defaultBlockUntilAdminAction: false,
    authorization: {
      permissions: {
        resourceSpecific: [{ name: "Document.ReadWrite.User", type: "Delegated" }],
      },
    },
    extensions: [
      {
        requirements: { ...sharedRuntime, scopes: ["workbook"] },
        runtimes: [
          {
            requirements: { ...sharedRuntime, formFactors: ["desktop"] },
            id: "SharedRuntime",
            type: "general",
            code: { page: `${at}${s.page}`, script: `${at}${s.functionsScript}` },
            lifetime: "long",
            actions: [
              { id: r.taskpaneId, type: "openPage", displayName: r.open.label },
              { id: r.refresh.functionName, type: "executeFunction", displayName: r.refresh.label },
            ],
            customFunctions: {
              namespace: { id: s.namespace, name: s.namespace },
              metadataUrl: `${at}${s.functionsMetadata}`,
              allowCustomDataForDataTypeAny:
                functionsMetadata.allowCustomDataForDataTypeAny === true,
            },
          },
        ],
        ribbons: [
          {
            requirements: {
              capabilities: [{ name: "AddinCommands", minVersion: "1.1" }],
              scopes: ["workbook"],
              formFactors: ["desktop"],
            },
            contexts: ["default"],
            tabs: [
              {
                builtInTabId: r.tab,
                groups: [
                  {
                    id: r.group.id,
                    label: r.group.label,
                    icons: iconSet,
                    controls: [
                      button(r.open, r.taskpaneId),
                      button(r.refresh, r.refresh.functionName),
                    ],
                  },
                ],
              },
            ],
          },
        ],
        alternates: [
          {
            alternateIcons: {
              icon: { size: 32, url: `${at}${s.icons[32]}` },
              highResolutionIcon: { size: 64, url: `${at}${s.icons[64]}` },
            },
          },
        ],
        getStartedMessages: [
          {
            requirements: { scopes: ["workbook"], formFactors: ["desktop"] },
            title: s.getStarted.title,
            description: s.getStarted.description,
            learnMoreUrl: `${at}${s.help}`,
          },
        ],
      },
    ],
  };
}

/** manifest.json as written: two-space JSON and a final newline. */
function unifiedText(origin, version, functionsMetadata) {
  return `${JSON.stringify(renderUnified(origin, version, functionsMetadata), null, 2)}\n`;
}

module.exports = { SOURCE, UNIFIED_SCHEMA_VERSION, renderXml, renderUnified, unifiedText };
