import { X509Certificate } from "crypto";
import { existsSync, readFileSync } from "fs";
import { homedir } from "os";
import { join } from "path";
import * as devCerts from "office-addin-dev-certs";

interface HttpsCredentials {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

const dir = join(homedir(), ".office-addin-dev-certs");
export const certificatePaths = {
  ca: join(dir, "ca.crt"),
  cert: join(dir, "localhost.crt"),
  key: join(dir, "localhost.key"),
};

/** A day's margin so a certificate does not expire in the middle of a session. */
const MIN_REMAINING_MS = 24 * 60 * 60 * 1000;

function usable(now: number): boolean {
  if (!Object.values(certificatePaths).every((p) => existsSync(p))) return false;
  const validTo = Date.parse(new X509Certificate(readFileSync(certificatePaths.cert)).validTo);
  return validTo - now > MIN_REMAINING_MS;
}

function read(): HttpsCredentials {
  return {
    ca: readFileSync(certificatePaths.ca),
    cert: readFileSync(certificatePaths.cert),
    key: readFileSync(certificatePaths.key),
  };
}

/**
 * Certificates for https://localhost from Microsoft's office-addin-dev-certs.
 * On Windows and macOS its getHttpsServerOptions() also installs the CA so Excel trusts the dev server.
 * On Linux that install needs sudo and fails (yet reports success), and getHttpsServerOptions() then throws:
 * there we only generate the files (same tool, same place) and read them. Returns whether the CA was trusted.
 */
export async function loadDevCertificates(
  platform: NodeJS.Platform = process.platform,
  now: number = Date.now()
): Promise<{ credentials: HttpsCredentials; caInstalled: boolean }> {
  if (platform === "win32" || platform === "darwin") {
    const options = await devCerts.getHttpsServerOptions();
    return {
      credentials: { ca: options.ca, cert: options.cert, key: options.key },
      caInstalled: true,
    };
  }
  if (!usable(now)) await devCerts.generateCertificates();
  return { credentials: read(), caInstalled: false };
}
