/**
 * Gateway processes as a team runs them, from a build of the current sources (`node …/gateway/main.js FLAGS`,
 * each a real child process; see src/tools/bench/gateway-processes.ts).
 */
import { join } from "node:path";
import {
  gatewayFiles,
  startGatewayProcess as start,
  type GatewayFiles,
  type GatewayProcess,
  type GatewayProcessOptions,
} from "../../../src/tools/bench/gateway-processes";
import { ensureNodeBuild } from "../../support/node-build";

export { gatewayFiles, type GatewayFiles, type GatewayProcess };

export async function startGatewayProcess(
  options: Omit<GatewayProcessOptions, "main">
): Promise<GatewayProcess> {
  return start({ ...options, main: join(await ensureNodeBuild(), "gateway", "main.js") });
}
