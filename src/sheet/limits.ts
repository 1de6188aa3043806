/**
 * How much of a formula the sheet model reads (the CLI, the preview page and the formula builder share the
 * parser). Each bound is checked before what it bounds is built: the length before the text is tokenized, the
 * depth as each level is entered, an array constant's size as its elements are read. Past one, the formula
 * is refused with a FormulaSyntaxError naming the limit: in the CLI a --file line gets its own #USAGE
 * result, the other lines still run. Stated in src/cli/README.md ("Limits").
 */

/**
 * Characters in one formula. Excel stops at 8,192, but the CLI's array constants stand for ranges (a
 * column of 500 ids for METRIC, a range lifted into VALUE), which Excel never has to write out: 100,000
 * characters hold the largest array constant below with 19 characters per element.
 */
export const MAX_FORMULA_LENGTH = 100_000;

/**
 * Levels of a formula's tree: each parenthesis, function call (nested CRYPTO calls included), sign,
 * operator and field read is one. Excel allows 64 levels of nested functions; operators chained in one
 * argument (`"a"&"b"&…`) count here too, hence more. The parser, the evaluator and the printer recurse once
 * per level: 100 levels are a few hundred stack frames, where 2,000 parentheses overflowed the stack.
 */
export const MAX_FORMULA_DEPTH = 100;

/**
 * Elements of one array constant. A lifted call makes one call per element, all pending at once in one
 * recalculation, at about 10 kB each: 5,000 is as many as the CLI evaluates at once anyway (its chunks of
 * 5,000 calls, src/cli/evaluation.ts), and keeps the CLI under 300 MB (10,000 took it to 330 MB). The
 * functions that take a list of ids refuse more than 500 of them anyway.
 */
export const MAX_ARRAY_ELEMENTS = 5_000;

/**
 * Cells of one range (`B2:B92`). Only the preview page's sheet has cells to read, and it draws every cell it
 * shows: a range is read cell by cell, and its cells are what the formula computes again after. A METRIC of
 * six years of days in one column is 2,192 cells, a panel of 500 projects with 10 columns 5,000: 100,000 holds
 * any range the page can show, and bounds a typo like A1:ZZZ999999 before it is walked.
 */
export const MAX_RANGE_CELLS = 100_000;
