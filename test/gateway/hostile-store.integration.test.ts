/**
 * The gateway's hostile table, rows 6 to 12j (Redis frozen, restarted and unreachable, turns over users,
 * half-open sockets, and the small rows), run as the red team ran it: see hostile-table.ts. Rows 1 to 5 are
 * hostile.integration.test.ts.
 */
import { describeGatewayRows } from "./hostile-table";

describeGatewayRows("6", "12j");
