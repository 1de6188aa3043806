/** A gateway in the test's own process (process memory, no Redis), its log captured. */
import { Writable } from "node:stream";
import { FixedTokens } from "../../../src/gateway/auth/tokens-file";
import type { Verifier } from "../../../src/gateway/auth/verifier";
import { createGateway, type Gateway, type GatewayConfig } from "../../../src/gateway/server";

export interface TestGateway {
  gateway: Gateway;
  url: string;
  /** Every log line so far. */
  log(): string;
  close(): Promise<void>;
}

export async function startTestGateway(
  config: Omit<GatewayConfig, "verifiers"> & {
    tokens?: Record<string, string>;
    verifiers?: Verifier[];
  }
): Promise<TestGateway> {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const verifiers = config.verifiers ?? [
    new FixedTokens(Object.entries(config.tokens ?? {}).map(([name, token]) => ({ name, token }))),
  ];
  const gateway = await createGateway({ logLevel: "info", logStream, ...config, verifiers });
  const url = await gateway.listen(0, "127.0.0.1");
  return { gateway, url, log: () => lines.join(""), close: () => gateway.close() };
}
