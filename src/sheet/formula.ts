/**
 * Recursive-descent parser for the formulas the sheet model evaluates: one call of an add-in function whose
 * arguments may compute dates and text with the Excel functions models use inside them, take another
 * add-in call's result, or read a card's field.
 *
 *   formula  := ["="] NAME "(" args ")"                    NAME may carry the optional "CRYPTO." prefix
 *             | ["="] "FIELDVALUE" "(" expr "," expr ")"   Excel's own: a field of a card
 *             | ["="] REFERENCE "." FIELD ("." FIELD)*     dot access, `=A1.Symbol`, `=A1.[Revenue TTM]`
 *   args     := [arg ("," arg)*]
 *   arg      := <nothing> | array | expr                   nothing = an omitted argument, as in f(a,,b)
 *   array    := "{" row (";" row)* "}"                     rows must have equal lengths
 *   row      := scalar ("," scalar)*
 *   scalar   := STRING | ["+"|"-"] NUMBER | TRUE | FALSE
 *   expr     := sum ("&" sum)*                             Excel's precedence: & below + -, below * /
 *   sum      := product (("+"|"-") product)*
 *   product  := unary (("*"|"/") unary)*
 *   unary    := ("+"|"-") unary | primary
 *   primary  := STRING | NUMBER | TRUE | FALSE | "(" expr ")" | EXCEL_NAME "(" [expr ("," expr)*] ")"
 *             | "CRYPTO." NAME "(" args ")"                a nested add-in call (the prefix is required)
 *             | "FIELDVALUE" "(" expr "," expr ")" | REFERENCE ("." FIELD)*
 *             | PLAIN_NAME "(" plain ("," plain)* ")"     SUM, INDEX…: ranges in, see plain-functions.ts
 *   plain    := array | expr
 *
 * A formula may also be an expression whose first word is a plain function (`=SUM(CRYPTO.METRIC(…))/4`):
 * the sheet computes it around the add-in calls inside (the `expression` root).
 *
 * EXCEL_NAME is one of the functions of excel-functions.ts (TODAY, NOW, DATE, EDATE, EOMONTH, YEAR, MONTH,
 * DAY), with exactly its parameters. Anything else (another function) is a FormulaSyntaxError naming it,
 * with a column, never another exception: the CLI reports it as a usage error, the pages refuse the
 * formula with its reason. A reference parses everywhere; only a host with cells (the preview page's
 * sheet) can read it, the others show #REF! saying so.
 *
 * Bounded (limits.ts): a formula's length is checked before it is read, its depth (the levels of nesting and
 * of operators the evaluator will recurse through) as each level is entered, and an array constant's size as
 * its elements are read; each refusal is a FormulaSyntaxError, never a stack overflow or an array built whole.
 */
import type { Grid } from "./cells";
import { FormulaSyntaxError } from "./errors";
import { EXCEL_FUNCTIONS, EXCEL_FUNCTION_NAMES } from "./excel-functions";
import { PLAIN_FUNCTION_NAMES, plainFunction } from "./plain-functions";
import { describeToken, tokenize, Token } from "./tokens";
import { MAX_ARRAY_ELEMENTS, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH } from "./limits";

export type Scalar =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean };

export type BinaryOperator = "+" | "-" | "*" | "/" | "&";

/** A computed argument: `TODAY()-365`, `DATE(2024,3,31)`, `"period="&"month"`. */
export type Expression =
  | Scalar
  | { kind: "call"; name: string; args: Expression[] }
  | { kind: "unary"; op: "+" | "-"; operand: Expression }
  | { kind: "binary"; op: BinaryOperator; left: Expression; right: Expression }
  | { kind: "group"; inner: Expression }
  /** A nested add-in call: its result is the value (a card, a number, a table). */
  | { kind: "crypto"; call: FormulaCall }
  /** FIELDVALUE(value, field), or dot access (`A1.Symbol`) when `dot` is set, as written. */
  | { kind: "field"; value: Expression; field: Expression; dot?: boolean }
  | { kind: "reference"; address: string }
  /** A nested call's, reference's or field's result once known (recalculation only; never parsed). */
  | { kind: "resolved"; grid: Grid }
  /** An array constant given to a plain function: `SUM({1,2,3})`. */
  | { kind: "array"; rows: Scalar[][] };

/** A constant stays a Scalar (so `-1` is the number -1); only what must be computed is an expression. */
export type Argument =
  | Scalar
  | { kind: "omitted" }
  | { kind: "array"; rows: Scalar[][] }
  | { kind: "expression"; expression: Expression };

export interface FormulaCall {
  /** As written, without the optional "CRYPTO." prefix; the registry matches it case-insensitively. */
  name: string;
  args: Argument[];
  /**
   * Set when the formula is Excel's FIELDVALUE rather than an add-in function (args: value, field);
   * `dot` when it was written as dot access (`=A1.Symbol`) and prints back that way. EXPRESSION_ROOT
   * when the formula is an expression around plain functions (`=SUM(CRYPTO.METRIC(…))`): its one argument
   * is that expression, and `name` the plain function it starts with.
   */
  builtin?: { name: typeof FIELDVALUE; dot: boolean } | { name: typeof EXPRESSION_ROOT };
}

export const FIELDVALUE = "FIELDVALUE";
export const EXPRESSION_ROOT = "EXPRESSION";

const NAMESPACE = "CRYPTO.";
const SUPPORTED = `in formulas: ${[...EXCEL_FUNCTION_NAMES, ...PLAIN_FUNCTION_NAMES].join(", ")}, ${FIELDVALUE} and CRYPTO functions (with their CRYPTO. prefix)`;

class Parser {
  private at = 0;
  /** Levels of parsing entered (nested expressions and signs): bounds the parser's own recursion. */
  private nesting = 0;
  /** The height of each node built above a leaf (leaves are 1): what evaluating or printing it recurses through. */
  private readonly heights = new Map<Expression, number>();

  constructor(private readonly tokens: Token[]) {}

  /** Enters one level of nesting at `token`, refused past MAX_FORMULA_DEPTH; `leave` when done. */
  private enter(token: Token): void {
    this.nesting += 1;
    if (this.nesting > MAX_FORMULA_DEPTH) tooDeep(token.column);
  }

  private leave(): void {
    this.nesting -= 1;
  }

  private heightOf(expression: Expression): number {
    return this.heights.get(expression) ?? 1;
  }

  /** A node over `children`, its height recorded; a formula taller than MAX_FORMULA_DEPTH is refused at `token`. */
  private built<E extends Expression>(node: E, token: Token, children: readonly Expression[]): E {
    const height = 1 + children.reduce((h, child) => Math.max(h, this.heightOf(child)), 0);
    if (height > MAX_FORMULA_DEPTH) tooDeep(token.column);
    this.heights.set(node, height);
    return node;
  }

  parseFormula(): FormulaCall {
    if (this.peek().kind === "end") throw new FormulaSyntaxError("empty formula", 1);
    this.acceptPunct("=");
    const call = this.parseRoot();
    const trailing = this.peek();
    if (trailing.kind !== "end") this.fail(trailing, " after the closing ')'");
    return call;
  }

  private parseRoot(): FormulaCall {
    const first = this.peek();
    if (first.kind === "reference") {
      this.next();
      if (first.fields.length === 0) {
        throw new FormulaSyntaxError(
          `a formula here calls a function; to read a card in ${first.address}, name a field: =${first.address}.Symbol`,
          first.column
        );
      }
      const dotted = this.dotAccess(first);
      if (dotted.kind !== "field") throw new FormulaSyntaxError("expected a field", first.column);
      return fieldValueCall(dotted.value, dotted.field, true);
    }
    if (first.kind === "name" && first.text.toUpperCase() === FIELDVALUE) {
      this.next();
      const { value, field } = this.parseFieldValueArguments();
      return fieldValueCall(value, field, false);
    }
    // `=SUM(CRYPTO.METRIC(…))`: Excel's own function around add-in calls. No add-in function has a plain
    // function's name (a test holds the registry to it), so the unprefixed name cannot be an add-in's.
    if (first.kind === "name" && plainFunction(first.text)) {
      return {
        name: first.text.toUpperCase(),
        args: [{ kind: "expression", expression: this.parseExpression() }],
        builtin: { name: EXPRESSION_ROOT },
      };
    }
    const name = this.parseName();
    this.expectPunct("(", `after the function name`);
    const args = this.parseArguments();
    this.expectPunct(")", "to close the argument list");
    return { name, args };
  }

  /** `(value, field)` after FIELDVALUE. */
  private parseFieldValueArguments(): { value: Expression; field: Expression } {
    this.expectPunct("(", `after ${FIELDVALUE}`);
    const value = this.parseExpression();
    this.expectPunct(",", `between ${FIELDVALUE}'s value and field_name`);
    const field = this.parseExpression();
    this.expectPunct(")", `to close ${FIELDVALUE}(`);
    return { value, field };
  }

  /** A reference token read as Excel reads `A1.Financials.Revenue`: each field of the previous one. */
  private dotAccess(token: Extract<Token, { kind: "reference" }>): Expression {
    let expression: Expression = { kind: "reference", address: token.address };
    for (const field of token.fields) {
      const node: Expression = {
        kind: "field",
        value: expression,
        field: { kind: "string", value: field },
        dot: true,
      };
      expression = this.built(node, token, [expression]);
    }
    return expression;
  }

  private parseName(token = this.next()): string {
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
    return asArgument(this.parseExpression());
  }

  private parseArray(): Argument {
    const open = this.next();
    const count = { elements: 0 };
    const rows: Scalar[][] = [this.parseRow(count)];
    while (this.acceptPunct(";")) rows.push(this.parseRow(count));
    this.expectPunct("}", "to close the array constant");
    if (rows.some((row) => row.length !== rows[0].length)) {
      throw new FormulaSyntaxError("array constant rows have different lengths", open.column);
    }
    return { kind: "array", rows };
  }

  /** One row of an array constant; `count` of the whole constant's elements, refused past the limit. */
  private parseRow(count: { elements: number }): Scalar[] {
    const row: Scalar[] = [];
    do {
      count.elements += 1;
      if (count.elements > MAX_ARRAY_ELEMENTS) {
        throw new FormulaSyntaxError(
          `an array constant holds at most ${MAX_ARRAY_ELEMENTS.toLocaleString("en-US")} elements`,
          this.peek().column
        );
      }
      row.push(this.parseScalar());
    } while (this.acceptPunct(","));
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
        return this.fail(token, " (array constants hold only text, numbers, TRUE and FALSE)");
      }
      case "reference":
        return this.fail(token, " (array constants hold only text, numbers, TRUE and FALSE)");
      case "punct": {
        if (token.text !== "-" && token.text !== "+")
          return this.fail(token, " (expected a value)");
        const operand = this.next();
        if (operand.kind !== "number")
          return this.fail(operand, ` (expected a number after '${token.text}')`);
        return { kind: "number", value: signed(token.text, operand.value) };
      }
      case "end":
        return this.fail(token, " (expected a value)");
    }
  }

  private parseExpression(): Expression {
    this.enter(this.peek());
    let left = this.parseSum();
    for (let token = this.peek(); this.acceptPunct("&"); token = this.peek()) {
      const right = this.parseSum();
      left = this.built({ kind: "binary", op: "&", left, right }, token, [left, right]);
    }
    this.leave();
    return left;
  }

  private parseSum(): Expression {
    let left = this.parseProduct();
    for (;;) {
      const token = this.peek();
      const op = this.acceptOneOf("+", "-");
      if (!op) return left;
      const right = this.parseProduct();
      left = this.built({ kind: "binary", op, left, right }, token, [left, right]);
    }
  }

  private parseProduct(): Expression {
    let left = this.parseUnary();
    for (;;) {
      const token = this.peek();
      const op = this.acceptOneOf("*", "/");
      if (!op) return left;
      const right = this.parseUnary();
      left = this.built({ kind: "binary", op, left, right }, token, [left, right]);
    }
  }

  private parseUnary(): Expression {
    const token = this.peek();
    const op = this.acceptOneOf("+", "-");
    if (op !== "+" && op !== "-") return this.parsePrimary();
    this.enter(token);
    const operand = this.parseUnary();
    this.leave();
    return this.built({ kind: "unary", op, operand }, token, [operand]);
  }

  private parsePrimary(): Expression {
    const token = this.next();
    switch (token.kind) {
      case "string":
        return { kind: "string", value: token.value };
      case "number":
        return { kind: "number", value: token.value };
      case "name":
        return this.parseNameInExpression(token);
      case "reference":
        return this.dotAccess(token);
      case "punct":
        if (token.text === "(") {
          const inner = this.parseExpression();
          this.expectPunct(")", "to close the parenthesis");
          return this.built({ kind: "group", inner }, token, [inner]);
        }
        if (token.text === "{")
          return this.fail(token, " (an array constant must be a whole argument)");
        return this.fail(token, " (expected a value)");
      case "end":
        return this.fail(token, " (expected a value)");
    }
  }

  private parseNameInExpression(token: Extract<Token, { kind: "name" }>): Expression {
    const upper = token.text.toUpperCase();
    if (!this.isPunct(this.peek(), "(")) {
      if (upper === "TRUE" || upper === "FALSE")
        return { kind: "boolean", value: upper === "TRUE" };
      return this.fail(token, " (text needs double quotes)");
    }
    if (upper.startsWith(NAMESPACE)) {
      const name = this.parseName(token);
      this.next(); // "("
      const args = this.parseArguments();
      this.expectPunct(")", `to close ${token.text}(`);
      return this.built({ kind: "crypto", call: { name, args } }, token, expressionsOf(args));
    }
    if (upper === FIELDVALUE) {
      const { value, field } = this.parseFieldValueArguments();
      return this.built({ kind: "field", value, field }, token, [value, field]);
    }
    if (plainFunction(upper)) return this.parsePlainCall(token, upper);
    const fn = Object.prototype.hasOwnProperty.call(EXCEL_FUNCTIONS, upper)
      ? EXCEL_FUNCTIONS[upper]
      : undefined;
    if (!fn) {
      throw new FormulaSyntaxError(
        `function ${token.text} is not supported; ${SUPPORTED}`,
        token.column
      );
    }
    this.next(); // "("
    const args: Expression[] = [];
    if (!this.isPunct(this.peek(), ")")) {
      do {
        const at = this.peek();
        if (this.isPunct(at, ",") || this.isPunct(at, ")"))
          this.fail(at, ` (an argument of ${upper} is missing)`);
        args.push(this.parseExpression());
      } while (this.acceptPunct(","));
    }
    this.expectPunct(")", `to close ${upper}(`);
    if (args.length !== fn.parameters.length) {
      const wanted =
        fn.parameters.length === 0
          ? "no arguments"
          : `${fn.parameters.length} argument${fn.parameters.length === 1 ? "" : "s"} (${fn.parameters.join(", ")})`;
      throw new FormulaSyntaxError(`${upper} takes ${wanted}, got ${args.length}`, token.column);
    }
    return this.built({ kind: "call", name: upper, args }, token, args);
  }

  /** `SUM(a, {1,2}, …)`: a plain function's arguments are ranges or values; their count is checked here. */
  private parsePlainCall(token: Extract<Token, { kind: "name" }>, upper: string): Expression {
    const fn = plainFunction(upper);
    if (!fn) return this.fail(token);
    this.next(); // "("
    const args: Expression[] = [];
    if (!this.isPunct(this.peek(), ")")) {
      do {
        const at = this.peek();
        if (this.isPunct(at, ",") || this.isPunct(at, ")"))
          this.fail(at, ` (an argument of ${upper} is missing)`);
        if (this.isPunct(at, "{")) {
          const array = this.parseArray();
          args.push({ kind: "array", rows: array.kind === "array" ? array.rows : [] });
        } else args.push(this.parseExpression());
      } while (this.acceptPunct(","));
    }
    this.expectPunct(")", `to close ${upper}(`);
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      const wanted =
        fn.minArgs === fn.maxArgs
          ? `${fn.minArgs} argument${fn.minArgs === 1 ? "" : "s"}`
          : fn.maxArgs === Infinity || fn.maxArgs > 100
            ? `at least ${fn.minArgs} argument${fn.minArgs === 1 ? "" : "s"} and at most ${fn.maxArgs}`
            : `${fn.minArgs} to ${fn.maxArgs} arguments`;
      throw new FormulaSyntaxError(
        `${upper} takes ${wanted} (${fn.parameters.join(", ")}), got ${args.length}`,
        token.column
      );
    }
    return { kind: "call", name: upper, args };
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

  private acceptOneOf<T extends string>(...texts: T[]): T | undefined {
    const token = this.peek();
    if (token.kind !== "punct" || !(texts as string[]).includes(token.text)) return undefined;
    this.at += 1;
    return token.text as T;
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

/** The computed arguments of a call (constants and arrays are leaves). */
function expressionsOf(args: readonly Argument[]): Expression[] {
  return args.flatMap((arg) => (arg.kind === "expression" ? [arg.expression] : []));
}

function tooDeep(column: number): never {
  throw new FormulaSyntaxError(
    `the formula is nested too deeply: at most ${MAX_FORMULA_DEPTH} levels of parentheses, function calls, signs and operators`,
    column
  );
}

/** Excel has no negative zero; keeping one would make "-0" and "0" different arguments. */
function signed(sign: string, value: number): number {
  const result = sign === "-" ? -value : value;
  return result === 0 ? 0 : result;
}

/** A constant argument, signed numbers included, is a Scalar; the rest is computed at recalculation. */
function asArgument(expression: Expression): Argument {
  // Only a sign written straight before a number literal: "-(1)" or "--1" stay expressions.
  if (expression.kind === "unary" && expression.operand.kind === "number") {
    return { kind: "number", value: signed(expression.op, expression.operand.value) };
  }
  if (expression.kind === "string" || expression.kind === "number" || expression.kind === "boolean")
    return expression;
  return { kind: "expression", expression };
}

/** Parse one formula; throws FormulaSyntaxError (and nothing else) when it is not in the subset. */
export function parseFormula(text: string): FormulaCall {
  // Before anything is read: a line of megabytes is refused at the cost of its length.
  if (text.length > MAX_FORMULA_LENGTH) {
    throw new FormulaSyntaxError(
      `the formula is ${text.length.toLocaleString("en-US")} characters long; at most ${MAX_FORMULA_LENGTH.toLocaleString("en-US")} are read`,
      MAX_FORMULA_LENGTH + 1
    );
  }
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

/** Binding strength, for printing parentheses exactly where the parser needs them. */
function precedence(expression: Expression): number {
  switch (expression.kind) {
    case "binary":
      return expression.op === "&" ? 1 : expression.op === "+" || expression.op === "-" ? 2 : 3;
    case "unary":
      return 4;
    case "number":
      // A negative literal reads back as a sign applied to a number.
      return expression.value < 0 ? 4 : 5;
    default:
      return 5;
  }
}

function printOperand(expression: Expression, atLeast: number): string {
  const text = printExpression(expression);
  return precedence(expression) < atLeast ? `(${text})` : text;
}

/** The canonical text of an expression; parseFormula reads it back to the same meaning. */
export function printExpression(expression: Expression): string {
  switch (expression.kind) {
    case "string":
    case "number":
    case "boolean":
      return printScalar(expression);
    case "group":
      return `(${printExpression(expression.inner)})`;
    case "call":
      return `${expression.name}(${expression.args.map(printExpression).join(",")})`;
    case "crypto":
      return `${NAMESPACE}${expression.call.name}(${expression.call.args.map(printArgument).join(",")})`;
    case "reference":
      return expression.address;
    case "field":
      return printField(expression.value, expression.field, expression.dot === true);
    case "resolved":
      // Never parsed, so never printed back; a readable stand-in all the same.
      return "(result)";
    case "array":
      return printArray(expression.rows);
    case "unary":
      return `${expression.op}${printOperand(expression.operand, 4)}`;
    case "binary": {
      const p = precedence(expression);
      // Left-associative: a right operand of the same strength needs parentheses ("1-(2-3)").
      return `${printOperand(expression.left, p)}${expression.op}${printOperand(expression.right, p + 1)}`;
    }
  }
}

function printArgument(arg: Argument): string {
  if (arg.kind === "omitted") return "";
  if (arg.kind === "expression") return printExpression(arg.expression);
  if (arg.kind === "array") return printArray(arg.rows);
  return printScalar(arg);
}

function printArray(rows: readonly Scalar[][]): string {
  return `{${rows.map((row) => row.map(printScalar).join(",")).join(";")}}`;
}

/** Dot access prints back as written where the field reads back the same; FIELDVALUE(...) otherwise. */
function printField(value: Expression, field: Expression, dot: boolean): string {
  const plain = /^[\p{L}_][\p{L}\p{N}_]*$/u;
  if (dot && field.kind === "string" && (value.kind === "reference" || value.kind === "field")) {
    const written = plain.test(field.value) ? field.value : `[${field.value}]`;
    if (!field.value.includes("]") && field.value.trim() === field.value && field.value !== "")
      return `${printExpression(value)}.${written}`;
  }
  return `${FIELDVALUE}(${printExpression(value)},${printExpression(field)})`;
}

/** A field read from a value: what FIELDVALUE (or dot access) at a formula's root holds. */
function fieldValueCall(value: Expression, field: Expression, dot: boolean): FormulaCall {
  return {
    name: FIELDVALUE,
    args: [{ kind: "expression", expression: value }, asArgument(field)],
    builtin: { name: FIELDVALUE, dot },
  };
}

/** The canonical text of a call, `=CRYPTO.NAME(args)`; parseFormula reads it back to the same call. */
export function printFormula(call: FormulaCall): string {
  if (call.builtin?.name === EXPRESSION_ROOT) {
    const [root] = call.args;
    return `=${root?.kind === "expression" ? printExpression(root.expression) : ""}`;
  }
  if (call.builtin) {
    const [value, field] = call.args;
    const expression = (arg: Argument | undefined): Expression =>
      arg === undefined || arg.kind === "omitted" || arg.kind === "array"
        ? { kind: "string", value: "" }
        : arg.kind === "expression"
          ? arg.expression
          : arg;
    return `=${printField(expression(value), expression(field), call.builtin.dot)}`;
  }
  return `=${NAMESPACE}${call.name}(${call.args.map(printArgument).join(",")})`;
}
