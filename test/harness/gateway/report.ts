/** The gateway's hostile table as Markdown: the row of the issue, the attack, before, after, and whether it held. */
import type { GatewayAttack, RowResult } from "./attacks";

const cell = (text: string): string => text.replace(/\|/g, "/").replace(/\s+/g, " ").trim();

export function formatGatewayTable(
  rows: ReadonlyArray<{ attack: GatewayAttack; result: RowResult }>
): string {
  const lines = [
    "| # | attack | before | after | held |",
    "|---|---|---|---|---|",
    ...rows.map(
      ({ attack, result }) =>
        `| ${attack.row} | ${cell(attack.attack)} | ${cell(attack.before)} | ${cell(result.after)} | ${
          result.violations.length === 0 ? "yes" : `NO: ${cell(result.violations.join("; "))}`
        } |`
    ),
  ];
  return `${lines.join("\n")}\n`;
}
