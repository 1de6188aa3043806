/**
 * The hostile lab's rows for the CLI's bounds (formulas nested past the stack, a full disk, a file-size
 * limit, 100,000 lines, array constants and saved entries of millions of elements) and the pages' text and
 * origins: each attack of budget-and-limits-attacks.ts's limits, run as `npm run faults` runs it, must keep
 * its bound. The rest of the table is security-attacks.integration.test.ts.
 */
import { LIMIT_ATTACKS } from "../harness/hostile/budget-and-limits-attacks";
import { describeAttacks } from "./security-table";

describeAttacks([["the bounds and the pages", LIMIT_ATTACKS]]);
