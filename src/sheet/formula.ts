/**
 * Recursive-descent parser for the one formula shape the sheet model evaluates: a single call of an add-in function.
 *
 *   formula  := ["="] NAME "(" [arg ("," arg)*] ")"        NAME may carry the optional "CRYPTO." prefix
 *   arg      := <nothing> | scalar | array                 nothing = an omitted argument, as in f(a,,b)
 *   array    := "{" row (";" row)* "}"                     rows must have equal lengths
 *   row      := scalar ("," scalar)*
 *   scalar   := STRING | ["+"|"-"] NUMBER | TRUE | FALSE
 *
 * Anything else (cell references, nested calls, operators) is a FormulaSyntaxError with a column, never
 * another exception: the CLI reports it as a usage error, the pages refuse the formula with its reason.
 */
import { FormulaSyntaxError } from "./errors";
import { describeToken, tokenize, Token } from "./tokens";

export type Scalar =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean };

export type Argument = Scalar | { kind: "omitted" } | { kind: "array"; rows: Scalar[][] };

export interface FormulaCall {
  /** As written, without the optional "CRYPTO." prefix; the registry matches it case-insensitively. */
  name: string;
  args: Argument[];
}

const NAMESPACE = "CRYPTO.";

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  parseFormula(): FormulaCall {
    if (this.peek().kind === "end") throw new FormulaSyntaxError("empty formula", 1);
    this.acceptPunct("=");
    const name = this.parseName();
    this.expectPunct("(", `after the function name`);
    const args = this.parseArguments();
    this.expectPunct(")", "to close the argument list");
    const trailing = this.peek();
    if (trailing.kind !== "end") this.fail(trailing, " after the closing ')'");
    return { name, args };
  }

  private parseName(): string {
    const token = this.next();
    if (token.kind !== "name") this.fail(token, " (expected a function name)");
    const written = token.text;
    const name = written.toUpperCase().startsWith(NAMESPACE)
      ? written.slice(NAMESPACE.length)
      : written;
    if (name === "") {
      throw new FormulaSyntaxError(
        `expected a function name after '${written}'`,
        token.column + written.length
      );
    }
    return name;
  }

  private parseArguments(): Argument[] {
    if (this.isPunct(this.peek(), ")")) return [];
    const args: Argument[] = [this.parseArgument()];
    while (this.acceptPunct(",")) args.push(this.parseArgument());
    return args;
  }

  private parseArgument(): Argument {
    const token = this.peek();
    if (this.isPunct(token, ",") || this.isPunct(token, ")")) return { kind: "omitted" };
    if (this.isPunct(token, "{")) return this.parseArray();
    return this.parseScalar();
  }

  private parseArray(): Argument {
    const open = this.next();
    const rows: Scalar[][] = [this.parseRow()];
    while (this.acceptPunct(";")) rows.push(this.parseRow());
    this.expectPunct("}", "to close the array constant");
    if (rows.some((row) => row.length !== rows[0].length)) {
      throw new FormulaSyntaxError("array constant rows have different lengths", open.column);
    }
    return { kind: "array", rows };
  }

  private parseRow(): Scalar[] {
    const row: Scalar[] = [this.parseScalar()];
    while (this.acceptPunct(",")) row.push(this.parseScalar());
    return row;
  }

  private parseScalar(): Scalar {
    const token = this.next();
    switch (token.kind) {
      case "string":
        return { kind: "string", value: token.value };
      case "number":
        return { kind: "number", value: token.value };
      case "name": {
        const upper = token.text.toUpperCase();
        if (upper === "TRUE" || upper === "FALSE")
          return { kind: "boolean", value: upper === "TRUE" };
        if (this.isPunct(this.peek(), "("))
          this.fail(token, " (nested function calls are not supported)");
        return this.fail(token, " (text needs double quotes)");
      }
      case "punct": {
        if (token.text !== "-" && token.text !== "+")
          return this.fail(token, " (expected a value)");
        const operand = this.next();
        if (operand.kind !== "number")
          return this.fail(operand, ` (expected a number after '${token.text}')`);
        const value = token.text === "-" ? -operand.value : operand.value;
        // Excel has no negative zero; keeping one would make "-0" and "0" different arguments.
        return { kind: "number", value: value === 0 ? 0 : value };
      }
      case "end":
        return this.fail(token, " (expected a value)");
    }
  }

  private peek(): Token {
    return this.tokens[this.at];
  }

  private next(): Token {
    const token = this.tokens[this.at];
    if (token.kind !== "end") this.at += 1;
    return token;
  }

  private isPunct(token: Token, text: string): boolean {
    return token.kind === "punct" && token.text === text;
  }

  private acceptPunct(text: string): boolean {
    if (!this.isPunct(this.peek(), text)) return false;
    this.at += 1;
    return true;
  }

  private expectPunct(text: string, purpose: string): void {
    const token = this.next();
    if (!this.isPunct(token, text)) this.fail(token, ` (expected '${text}' ${purpose})`);
  }

  private fail(token: Token, hint = ""): never {
    throw new FormulaSyntaxError(`unexpected ${describeToken(token)}${hint}`, token.column);
  }
}

/** Parse one formula; throws FormulaSyntaxError (and nothing else) when it is not in the subset. */
export function parseFormula(text: string): FormulaCall {
  return new Parser(tokenize(text)).parseFormula();
}

function printScalar(scalar: Scalar): string {
  switch (scalar.kind) {
    case "string":
      return `"${scalar.value.replace(/"/g, '""')}"`;
    case "number":
      return String(scalar.value);
    case "boolean":
      return scalar.value ? "TRUE" : "FALSE";
  }
}

function printArgument(arg: Argument): string {
  if (arg.kind === "omitted") return "";
  if (arg.kind === "array")
    return `{${arg.rows.map((row) => row.map(printScalar).join(",")).join(";")}}`;
  return printScalar(arg);
}

/** The canonical text of a call, `=CRYPTO.NAME(args)`; parseFormula reads it back to the same call. */
export function printFormula(call: FormulaCall): string {
  return `=${NAMESPACE}${call.name}(${call.args.map(printArgument).join(",")})`;
}
