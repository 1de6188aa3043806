/**
 * What the gateway says reaches the add-in's user whole. The client shows a service's `{"message"}` through its
 * snippet (secrets and anything that reads as `Bearer <token>` redacted, cut at 200 characters), as it must for
 * a service it does not trust; the gateway's own sentences are written to pass through it untouched. Every
 * sentence the gateway may answer with (read from its source: GatewayError texts, answered messages; and the
 * texts of failures, from the gateway column of the table of error words) is checked, so a sentence added
 * tomorrow is checked too; and the two 401s go through the client itself.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { createClient, ERROR_WORDS, snippet, type FetchLike } from "../../src/client";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { OPERATIONS, PARAMETER_NAMES } from "../../src/gateway/operations";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { FAKE_SERVICE_URL, fakeService } from "./support/fake-service";

const ROOT = join(__dirname, "..", "..");
const GATEWAY = join(ROOT, "src", "gateway");
/** What the client keeps of a service's message (src/client/http/response.ts). */
const CLIENT_CUT = 200;
/**
 * A placeholder's longest value outside the schema's refusals (a parameter's name, a bound, a count); those name
 * an operation and its parameters, and are asked of the gateway itself, for every operation, below.
 */
const PLACEHOLDER = "x".repeat(24);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The text of a string or template (each placeholder at its longest), or undefined for anything else. */
function textOf(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((s) => PLACEHOLDER + s.literal.text).join("");
  if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
  return undefined;
}

/** Every sentence in `node` that is a string (both sides of a conditional). */
function textsIn(node: ts.Node): string[] {
  if (ts.isConditionalExpression(node))
    return [...textsIn(node.whenTrue), ...textsIn(node.whenFalse)];
  const text = textOf(node);
  return text === undefined ? [] : [text];
}

/** The sentences the gateway answers with: GatewayError's texts, `message:` members, the failure texts' tables. */
function gatewaySentences(): Array<{ where: string; text: string }> {
  const found: Array<{ where: string; text: string }> = [];
  for (const file of sourceFiles(GATEWAY)) {
    const source = ts.createSourceFile(
      file,
      readFileSync(file, "utf8"),
      ts.ScriptTarget.Latest,
      true
    );
    const add = (node: ts.Node) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      for (const text of textsIn(node))
        found.push({ where: `${relative(ROOT, file)}:${line}`, text });
    };
    // The schema's refusals are asked of the gateway for every operation (see the test below).
    if (file.endsWith("schema.ts")) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isNewExpression(node) &&
        node.expression.getText() === "GatewayError" &&
        node.arguments?.[1]
      )
        add(node.arguments[1]);
      if (ts.isPropertyAssignment(node) && node.name.getText() === "message") add(node.initializer);
      if (
        ts.isVariableDeclaration(node) &&
        /^(UNEXPECTED|MISSING_TOKEN|INVALID_TOKEN|KEY_BODY_TEXT)$/.test(node.name.getText()) &&
        node.initializer
      ) {
        const visitValue = (n: ts.Node): void => {
          const text = textOf(n);
          if (text !== undefined) add(n);
          else ts.forEachChild(n, visitValue);
        };
        visitValue(node.initializer);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  // The failures of the service, in the table of error words' gateway column.
  for (const [kind, { gateway }] of Object.entries(ERROR_WORDS)) {
    found.push({ where: `ERROR_WORDS[${kind}].gateway`, text: gateway.text });
    if (gateway.ownKey)
      found.push({ where: `ERROR_WORDS[${kind}].gateway.ownKey`, text: gateway.ownKey.text });
  }
  return found;
}

describe("the gateway's words", () => {
  it("reach the user whole: none cut by the client, none taken for a token by its redactor", () => {
    const sentences = gatewaySentences();
    // The table of failures, the 401s, the lanes' and the schema's refusals, the account's: dozens, not a few.
    expect(sentences.length).toBeGreaterThan(40);
    const altered = sentences.filter(
      ({ text }) => snippet(text, [], CLIENT_CUT) !== text.replace(/\s+/g, " ").trim()
    );
    expect(altered).toEqual([]);
  });

  it("refuse any operation's query or path in sentences the user reads whole", async () => {
    const token = "tok_words_schema_7c2d";
    const gateway: Gateway = await createGateway({
      serviceUrl: FAKE_SERVICE_URL,
      serviceKey: "cm_team_words_0123456789abcdef0123",
      verifiers: [new FixedTokens([{ name: "ann", token }])],
      fetch: fakeService().fetch,
      logLevel: "silent",
    });
    const said: string[] = [];
    const ask = async (url: string) => {
      const answer = await gateway.app.inject({
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.statusCode).toBe(400);
      said.push((JSON.parse(answer.body) as { message: string }).message);
    };
    try {
      for (const spec of OPERATIONS) {
        const path = (id: string) =>
          "/" + spec.path.map((part) => (part.startsWith(":") ? id : part)).join("/");
        const names = Object.keys(spec.params);
        const another = [...PARAMETER_NAMES].find((name) => !names.includes(name));
        // An unknown name in the twelfth place (after eleven known ones, or unknown ones), a parameter of
        // another operation, a value of the wrong kind for each parameter, a path id that is not one.
        const before = Array.from({ length: 11 }, (_, i) => `${names[i] ?? `q${i}`}=1`);
        if (names.length === 0) await ask(`${path("aave")}?${before.join("&")}`);
        await ask(`${path("aave")}?zz_${Date.now()}=1`);
        if (another) await ask(`${path("aave")}?${another}=1`);
        for (const name of names) await ask(`${path("aave")}?${name}=..%2F`);
        if (spec.path.some((part) => part.startsWith(":"))) await ask(path("a..b"));
      }
      expect(said.length).toBeGreaterThan(OPERATIONS.length * 2);
      expect(said.filter((text) => snippet(text, [], CLIENT_CUT) !== text)).toEqual([]);
    } finally {
      await gateway.close();
    }
  });

  it("say why a token was refused through the add-in's own client, in full", async () => {
    const token = "tok_words_4b1f9e2c7d";
    const service = fakeService();
    const gateway = await createGateway({
      serviceUrl: FAKE_SERVICE_URL,
      serviceKey: "cm_team_words_0123456789abcdef0123",
      verifiers: [new FixedTokens([{ name: "ann", token }])],
      fetch: service.fetch,
      logLevel: "silent",
    });
    /** The gateway through inject, as the client's fetch; `strip` drops the Authorization header. */
    const through =
      (strip: boolean): FetchLike =>
      async (raw, init) => {
        const url = new URL(raw);
        const headers: Record<string, string> = { ...init.headers };
        if (strip) delete headers.Authorization;
        const answer = await gateway.app.inject({ url: url.pathname + url.search, headers });
        return new Response(answer.body, {
          status: answer.statusCode,
          headers: answer.headers as Record<string, string>,
        });
      };
    const said = async (apiKey: string, strip: boolean): Promise<string> => {
      const client = createClient({
        baseUrl: "http://127.0.0.1:9",
        apiKey,
        fetch: through(strip),
        retry: { maxAttempts: 1 },
      });
      const error = await client.listMetrics().then(
        () => undefined,
        (e: unknown) => e
      );
      expect(error).toMatchObject({ kind: "unauthorized" });
      return (error as Error).message;
    };
    try {
      const missing = await said(token, true);
      expect(missing).toContain(
        "Missing authorization header: send the token the team gateway's administrator gave you"
      );
      const invalid = await said("tok_not_one_of_them_123", false);
      expect(invalid).toContain(
        "Invalid authorization header: this token is not (or no longer) accepted by the team gateway"
      );
      for (const message of [missing, invalid]) {
        expect(message).not.toContain("[REDACTED]");
        expect(message).not.toContain("…");
      }
      expect(service.requests).toHaveLength(0);
    } finally {
      await gateway.close();
    }
  });
});
