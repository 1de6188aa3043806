/**
 * N analysts cost what one costs, every time, on the cluster store: the team property of
 * test/gateway/support/team-property.ts (what it claims, how, and why one file per store).
 */
import { teamProperty } from "./support/team-property";

teamProperty("cluster");
