/**
 * The gateway's hostile table as a command (`npm run faults:gateway`, or on another build:
 * `node dist/harness/test/harness/gateway/main.js --main OLD/dist/node/gateway/main.js`, which is how its
 * "before" column was measured): every row against real gateway processes, printed as a table; exit 1 when a
 * row broke its bound.
 *
 *   npm run faults:gateway -- --only 12    # the rows whose number starts with 12
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { GATEWAY_ATTACKS, type GatewayAttack, type RowResult } from "./attacks";
import { openGatewayLab } from "./lab";
import { formatGatewayTable } from "./report";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      main: { type: "string" },
      only: { type: "string", multiple: true },
    },
  });
  const mainJs = resolve(values.main ?? "dist/node/gateway/main.js");
  const only = values.only ?? [];
  const rows = GATEWAY_ATTACKS.filter(
    (a) => only.length === 0 || only.some((o) => a.row === o || a.row.startsWith(o))
  );
  const lab = await openGatewayLab({ main: mainJs });
  const results: Array<{ attack: GatewayAttack; result: RowResult }> = [];
  try {
    for (const attack of rows) {
      const started = Date.now();
      let result: RowResult;
      try {
        result = await attack.run(lab);
      } catch (error) {
        result = {
          after: `failed: ${error instanceof Error ? error.message : String(error)}`,
          violations: ["the row failed"],
        };
      }
      results.push({ attack, result });
      process.stdout.write(
        `  ${result.violations.length === 0 ? "ok  " : "FAIL"} ${attack.row} (${Date.now() - started} ms): ${result.after}\n`
      );
    }
  } finally {
    await lab.close();
  }
  process.stdout.write(`\n${formatGatewayTable(results)}`);
  return results.some((r) => r.result.violations.length > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    );
    process.exit(2);
  }
);
