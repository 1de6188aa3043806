/**
 * The gateway's hostile table (test/harness/gateway/attacks.ts) as jest tests, for the files that run its rows
 * (hostile, hostile-store: two files, so that jest's two workers share the table): one lab per file (real
 * gateway processes of the current build on a real redis-server, the simulator upstream, every attack made
 * with a valid token or sign-in). Each row must keep its bound; the file's part of the table (attack, before,
 * after) is printed.
 */
import { join } from "node:path";
import { GATEWAY_ATTACKS, type GatewayAttack, type RowResult } from "../harness/gateway/attacks";
import { openGatewayLab, type GatewayLab } from "../harness/gateway/lab";
import { formatGatewayTable } from "../harness/gateway/report";
import { ensureNodeBuild } from "../support/node-build";

/** The rows from `first` to `last` (the table's order, both included). */
export function describeGatewayRows(first: string, last: string): void {
  const from = GATEWAY_ATTACKS.findIndex((a) => a.row === first);
  const to = GATEWAY_ATTACKS.findIndex((a) => a.row === last);
  if (from < 0 || to < from) throw new Error(`no rows ${first} to ${last} in the table`);
  const rows = GATEWAY_ATTACKS.slice(from, to + 1);

  let lab: GatewayLab;
  const results: Array<{ attack: GatewayAttack; result: RowResult }> = [];

  beforeAll(async () => {
    lab = await openGatewayLab({ main: join(await ensureNodeBuild(), "gateway", "main.js") });
  }, 300_000);

  afterAll(async () => {
    await lab?.close();
    if (results.length > 0)
      process.stdout.write(`\nThe gateway's hostile table:\n\n${formatGatewayTable(results)}\n`);
  });

  describe("the gateway's hostile table", () => {
    it.each(rows.map((a) => [`${a.row}: ${a.bound}`, a] as const))(
      "%s",
      async (_name, attack) => {
        const result = await attack.run(lab);
        results.push({ attack, result });
        expect(result.violations).toEqual([]);
      },
      180_000
    );
  });
}
