/**
 * The gateway's hostile table (test/harness/gateway/attacks.ts), run as the red team ran it: real gateway
 * processes of the current build on a real redis-server, the simulator upstream, every attack made with a valid
 * token or sign-in. Each row must keep its bound; the table (attack, before, after) is printed.
 */
import { join } from "node:path";
import { GATEWAY_ATTACKS, type GatewayAttack, type RowResult } from "../harness/gateway/attacks";
import { openGatewayLab, type GatewayLab } from "../harness/gateway/lab";
import { formatGatewayTable } from "../harness/gateway/report";
import { ensureNodeBuild } from "../support/node-build";

jest.setTimeout(180_000);

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
  it.each(GATEWAY_ATTACKS.map((a) => [`${a.row}: ${a.bound}`, a] as const))(
    "%s",
    async (_name, attack) => {
      const result = await attack.run(lab);
      results.push({ attack, result });
      expect(result.violations).toEqual([]);
    }
  );
});
