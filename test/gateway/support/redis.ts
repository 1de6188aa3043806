/** A real Redis per test file (see src/tools/bench/gateway-processes.ts). */
export { startRedis, type RedisServer } from "../../../src/tools/bench/gateway-processes";
