/**
 * Recursive-descent parser for the formulas the sheet model evaluates: Excel's everyday formulas around the
 * add-in's calls, as a model writes them in a cell.
 *
 *   formula  := ["="] compare                               one expression; see the root's readings below
 *   compare  := concat (("="|"<>"|"<"|">"|"<="|">=") concat)*
 *   concat   := sum ("&" sum)*                              Excel's precedence: comparisons, &, + -, * /, ^
 *   sum      := product (("+"|"-") product)*
 *   product  := power (("*"|"/") power)*
 *   power    := unary ("^" unary)*                          -2^2 is 4, as in Excel: the sign binds first
 *   unary    := ("+"|"-") unary | primary
 *   primary  := STRING | NUMBER | TRUE | FALSE | "(" compare ")"
 *             | REFERENCE ("." FIELD)* | REFERENCE ":" REFERENCE | REFERENCE "#"    a cell, a range, a spill
 *             | "CRYPTO." NAME "(" args ")"                 an add-in call (the prefix is required inside)
 *             | "FIELDVALUE" "(" compare SEP compare ")"
 *             | EXCEL_NAME "(" [compare (SEP compare)*] ")"  DATE, TODAY, EOMONTH, ROUND…: excel-functions.ts
 *             | PLAIN_NAME "(" [plain (SEP plain)*] ")"     SUM, INDEX…: ranges in, plain-functions.ts
 *             | SPECIAL_NAME "(" … ")"                      IF, IFERROR, TEXT: special-functions.ts
 *             | NAME "(" args ")"                           any other name: #NAME? when computed
 *   args     := [arg (SEP arg)*]       arg := <nothing> | array | compare   (nothing: f(a,,b))
 *   plain    := <nothing> | array | compare
 *   array    := "{" row (";" row)* "}"   row := scalar ("," scalar)*   scalar := STRING | [sign] NUMBER | TRUE | FALSE
 *   SEP      := "," | ";"                                   ";" too, as Excel writes it where "," is the decimal mark
 *
 * The root: a formula that is one add-in call (`=CRYPTO.METRIC(…)`, or `=METRIC(…)` without the prefix, as
 * the command line takes it) is that call, bound and called as the add-in function; one that is a card's
 * field (`=A1.Symbol`, `=FIELDVALUE(…)`) reads it; anything else (`=SUM(B2:B92)`, `=CRYPTO.VALUE(…)/1e6`,
 * `=ROUND(…)`, `=1e6`) is an expression the sheet computes around the add-in calls inside it (the
 * `expression` root). A function the sheet does not know is not a syntax error: the formula is entered and
 * shows #NAME? naming the function as written, as in Excel.
 *
 * A reference parses everywhere; only a host with cells (the preview page's sheet) can read it, the others
 * show #REF! saying so.
 *
 * Bounded (limits.ts): a formula's length is checked before it is read, its depth (the levels of nesting and
 * of operators the evaluator will recurse through) as each level is entered, an array constant's size as its
 * elements are read, and a range's size as it is read; each refusal is a FormulaSyntaxError, never a stack
 * overflow or an array built whole.
 */
import type { Grid } from "./cells";
import { FormulaSyntaxError } from "./errors";
import { EXCEL_FUNCTIONS } from "./excel-functions";
import { plainFunction } from "./plain-functions";
import { specialFunction } from "./special-functions";
import { describeToken, tokenize, Token } from "./tokens";
import { positionOfAddress } from "./addresses";
import {
  MAX_ARRAY_ELEMENTS,
  MAX_FORMULA_DEPTH,
  MAX_FORMULA_LENGTH,
  MAX_RANGE_CELLS,
} from "./limits";

export type Scalar =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean };

export type ComparisonOperator = "=" | "<>" | "<" | ">" | "<=" | ">=";
export type BinaryOperator = "+" | "-" | "*" | "/" | "^" | "&" | ComparisonOperator;

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
  /** `B2:B92`: the cells between two corners (as written; either corner first). */
  | { kind: "range"; from: string; to: string }
  /** `A1#`: the whole result spilled from A1. */
  | { kind: "spill"; address: string }
  /** A function the sheet does not know, its name as written: #NAME? when computed. */
  | { kind: "unknown"; name: string; args: Argument[] }
  /** An argument left out of a plain function (`INDEX(A1#,,2)`): an empty cell. */
  | { kind: "blank" }
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
  /**
   * The name as typed when it had no CRYPTO. prefix (`=ROUNDUP(…)`): an unknown function's #NAME? names it so,
   * never as a CRYPTO function the user did not write.
   */
  written?: string;
}

export const FIELDVALUE = "FIELDVALUE";
export const EXPRESSION_ROOT = "EXPRESSION";

const NAMESPACE = "CRYPTO.";
/** A string or number token as the constant it writes (in an expression or in an array constant). */
function constantOf(token: Extract<Token, { kind: "string" | "number" }>): Scalar {
  return token.kind === "string"
    ? { kind: "string", value: token.value }
    : { kind: "number", value: token.value };
}

const COMPARISONS: readonly ComparisonOperator[] = ["=", "<>", "<", ">", "<=", ">="];

class Parser {
  private at = 0;
  /**
   * Levels of parsing entered (nested expressions and signs): bounds the parser's own recursion. The root
   * expression is level 0, so a formula of one call nests as deep as the arguments of that call.
   */
  private nesting = -1;
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
    // (The root's own node is one level above its arguments' limit.)
    if (height > MAX_FORMULA_DEPTH + 1) tooDeep(token.column);
    this.heights.set(node, height);
    return node;
  }

  parseFormula(): FormulaCall {
    if (this.peek().kind === "end") throw new FormulaSyntaxError("empty formula", 1);
    this.acceptPunct("=");
    if (this.peek().kind === "end") throw new FormulaSyntaxError("empty formula", 2);
    const root = this.parseExpression();
    const trailing = this.peek();
    if (trailing.kind !== "end") {
      if (this.isPunct(trailing, ")")) this.fail(trailing, " after the closing ')'");
      this.fail(trailing, " after the end of the formula");
    }
    return rootCall(root);
  }

  /** `(value, field)` after FIELDVALUE. */
  private parseFieldValueArguments(): { value: Expression; field: Expression } {
    this.expectPunct("(", `after ${FIELDVALUE}`);
    const value = this.parseExpression();
    if (!this.acceptSeparator())
      this.fail(this.peek(), ` (expected ',' between ${FIELDVALUE}'s value and field_name)`);
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
    while (this.acceptSeparator()) args.push(this.parseArgument());
    return args;
  }

  private parseArgument(): Argument {
    const token = this.peek();
    if (this.isSeparator(token) || this.isPunct(token, ")")) return { kind: "omitted" };
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
      case "number":
        return constantOf(token);
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
    const expression = this.parseLeftAssociative(COMPARISONS, () => this.parseConcat());
    this.leave();
    return expression;
  }

  private parseConcat(): Expression {
    return this.parseLeftAssociative(["&"], () => this.parseSum());
  }

  private parseSum(): Expression {
    return this.parseLeftAssociative(["+", "-"], () => this.parseProduct());
  }

  private parseProduct(): Expression {
    return this.parseLeftAssociative(["*", "/"], () => this.parsePower());
  }

  private parsePower(): Expression {
    return this.parseLeftAssociative(["^"], () => this.parseUnary());
  }

  /** One level of binary operators, left-associative: `operand (op operand)*` for the operators `ops`. */
  private parseLeftAssociative(
    ops: readonly BinaryOperator[],
    parseOperand: () => Expression
  ): Expression {
    let left = parseOperand();
    for (;;) {
      const token = this.peek();
      const op = this.acceptOneOf(...ops);
      if (!op) return left;
      const right = parseOperand();
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

  /** `A1`, `A1.Symbol`, `B2:B92` or `A1#`. */
  private parseReference(token: Extract<Token, { kind: "reference" }>): Expression {
    if (token.fields.length === 0 && this.isPunct(this.peek(), ":")) {
      this.next();
      const to = this.next();
      if (to.kind !== "reference" || to.fields.length > 0)
        this.fail(to, " (expected the range's other corner, as in B2:B92)");
      const a = positionOfAddress(token.address);
      const b = positionOfAddress(to.address);
      const cells = (Math.abs(a.row - b.row) + 1) * (Math.abs(a.column - b.column) + 1);
      if (cells > MAX_RANGE_CELLS)
        throw new FormulaSyntaxError(
          `the range ${token.address}:${to.address} holds ${cells.toLocaleString("en-US")} cells; at most ${MAX_RANGE_CELLS.toLocaleString("en-US")} are read`,
          token.column
        );
      return { kind: "range", from: token.address, to: to.address };
    }
    if (token.fields.length === 0 && this.isPunct(this.peek(), "#")) {
      const hash = this.peek();
      // `A1#` is written without a space: `A1 #` is not a spill reference.
      if (hash.column === token.column + token.text.length) {
        this.next();
        return { kind: "spill", address: token.address };
      }
    }
    return this.dotAccess(token);
  }

  private parsePrimary(): Expression {
    const token = this.next();
    switch (token.kind) {
      case "string":
      case "number":
        return constantOf(token);
      case "name":
        return this.parseNameInExpression(token);
      case "reference":
        return this.parseReference(token);
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
    const special = specialFunction(upper);
    const fn = Object.prototype.hasOwnProperty.call(EXCEL_FUNCTIONS, upper)
      ? EXCEL_FUNCTIONS[upper]
      : undefined;
    if (!fn && !special) {
      // Not a function the sheet knows: entered all the same, and #NAME? naming it when computed.
      this.next(); // "("
      const args = this.parseArguments();
      this.expectPunct(")", `to close ${token.text}(`);
      return this.built({ kind: "unknown", name: token.text, args }, token, expressionsOf(args));
    }
    this.next(); // "("
    const args: Expression[] = [];
    if (!this.isPunct(this.peek(), ")")) {
      do {
        const at = this.peek();
        if (this.isSeparator(at) || this.isPunct(at, ")")) {
          // IF(x,,b) and IF(x,a,) leave a branch empty, as Excel allows: it reads as 0.
          if (special?.blanks) {
            args.push({ kind: "number", value: 0 });
            continue;
          }
          this.fail(at, ` (an argument of ${upper} is missing)`);
        }
        args.push(this.parseExpression());
      } while (this.acceptSeparator());
    }
    this.expectPunct(")", `to close ${upper}(`);
    const parameters = fn?.parameters ?? special?.parameters ?? [];
    const least = special ? special.minArgs : parameters.length;
    if (args.length < least || args.length > parameters.length) {
      const count = (n: number): string => `${n} argument${n === 1 ? "" : "s"}`;
      const wanted =
        parameters.length === 0
          ? "no arguments"
          : least === parameters.length
            ? `${count(least)} (${parameters.join(", ")})`
            : `${least} to ${parameters.length} arguments (${parameters.join(", ")})`;
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
        if (this.isSeparator(at) || this.isPunct(at, ")")) args.push({ kind: "blank" });
        else if (this.isPunct(at, "{")) {
          const array = this.parseArray();
          args.push({ kind: "array", rows: array.kind === "array" ? array.rows : [] });
        } else args.push(this.parseExpression());
      } while (this.acceptSeparator());
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
    return this.built({ kind: "call", name: upper, args }, token, args);
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

  private isSeparator(token: Token): boolean {
    return this.isPunct(token, ",") || this.isPunct(token, ";");
  }

  /** `,` or `;` between arguments: Excel writes `;` where the decimal mark is a comma. */
  private acceptSeparator(): boolean {
    return this.acceptPunct(",") || this.acceptPunct(";");
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

/**
 * The formula's root (see the grammar above): one add-in call is that call; a card's field reads it; any
 * other expression is computed by the sheet around the calls inside it.
 */
function rootCall(root: Expression): FormulaCall {
  if (root.kind === "crypto") return root.call;
  // An unprefixed name at the root is the add-in function of that name when there is one (the command line
  // takes `VALUE("aave","tvl")`); the binder says #NAME? with the name as written when there is none.
  if (root.kind === "unknown") return { name: root.name, args: root.args, written: root.name };
  if (root.kind === "field") return fieldValueCall(root.value, root.field, root.dot === true);
  return {
    name: root.kind === "call" ? root.name : "FORMULA",
    args: [{ kind: "expression", expression: root }],
    builtin: { name: EXPRESSION_ROOT },
  };
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
      switch (expression.op) {
        case "&":
          return 1;
        case "+":
        case "-":
          return 2;
        case "*":
        case "/":
          return 3;
        case "^":
          return 4;
        default:
          return 0; // the comparisons bind last
      }
    case "unary":
      return 5;
    case "number":
      // A negative literal reads back as a sign applied to a number.
      return expression.value < 0 ? 5 : 6;
    default:
      return 6;
  }
}

function printOperand(expression: Expression, atLeast: number): string {
  const text = printExpression(expression);
  return precedence(expression) < atLeast ? `(${text})` : text;
}

/** The canonical text of an expression; parseFormula reads it back to the same meaning. */
function printExpression(expression: Expression): string {
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
      return `${expression.op}${printOperand(expression.operand, 5)}`;
    case "range":
      return `${expression.from}:${expression.to}`;
    case "spill":
      return `${expression.address}#`;
    case "unknown":
      return `${expression.name}(${expression.args.map(printArgument).join(",")})`;
    case "blank":
      return "";
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
