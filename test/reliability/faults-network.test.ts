/** Faults of the network and damaged answers (hangs, resets, captive portals...); see fault-suite.ts. */
import { SCENARIOS } from "../harness/faults/scenarios";
import { faultTable, isNetworkFault, useFaultWorld } from "./fault-suite";

const world = useFaultWorld();

describe("the fault table: the network's faults", () => {
  faultTable(
    world,
    SCENARIOS.filter((s) => isNetworkFault(s))
  );
});
