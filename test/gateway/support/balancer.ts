/** What a team puts in front of several gateway processes (see src/tools/bench/gateway-processes.ts). */
export { startBalancer } from "../../../src/tools/bench/gateway-processes";
