/**
 * Writes dist/node/functions/functions.meta.json at build time: the same metadata that
 * custom-functions-metadata-plugin puts in functions.json for Excel, plus the id -> exported function map that
 * the plugin turns into CustomFunctions.associate calls. The CLI reads it, so it calls the functions exactly
 * as Excel would, without loading the TypeScript compiler on every run.
 */
import { mkdirSync, writeFileSync } from "fs";
import { dirname, resolve } from "path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { messageOf } from "../client";

export async function generateFunctionsMeta(source: string): Promise<string> {
  const result = await generateCustomFunctionsMetadata(source, true);
  if (result.errors.length > 0) throw new Error(result.errors.join("\n"));
  const metadata: unknown = JSON.parse(result.metadataJson);
  const associate = result.associate.map(({ id, functionName }) => ({ id, functionName }));
  return JSON.stringify({ metadata, associate }, null, 2);
}

if (require.main === module) {
  const root = resolve(__dirname, "../../..");
  const out = resolve(root, "dist/node/functions/functions.meta.json");
  generateFunctionsMeta(resolve(root, "src/functions/functions.ts")).then(
    (json) => {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, json);
    },
    (error: unknown) => {
      process.stderr.write(`functions metadata: ${messageOf(error)}\n`);
      process.exit(1);
    }
  );
}
