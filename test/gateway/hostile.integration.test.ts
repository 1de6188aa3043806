/**
 * The gateway's hostile table, rows 1 to 5 (keys walked, lanes, queues, big answers, failures remembered), run
 * as the red team ran it: see hostile-table.ts. Rows 6 to 12j are hostile-store.integration.test.ts.
 */
import { describeGatewayRows } from "./hostile-table";

describeGatewayRows("1", "5");
