/**
 * What a hostile service was tried with and the add-in already held, kept in the lab so that it keeps
 * holding: redirects to plain http and back to themselves are refused, `__proto__` members in an answer
 * pollute nothing, and ids that would change a URL (`aave&metric_ids=x`, `../`) reach the service only
 * percent-encoded. (A redirect to another origin, bodies that trickle and the rate limit are checked with
 * the attacks in ./attacks.)
 */
import { isDeepStrictEqual } from "node:util";
import { message, PROJECTS_PATH, runtimeResult, value, type HostileAttack } from "./attacks";
import type { Formula } from "../faults/workbook";

/** Ids the catalogue is made to hold: each would change the request's URL if it were not encoded. */
const URL_CHANGING_IDS = ["aave&metric_ids=x", "../../v1/admin", "..", "a/b?c=d#e"] as const;

/** What must never appear in a request line: a raw query separator from an id, or a dot segment. */
const UNENCODED = /&metric_ids=x|(^|\/)\.\.(\/|\?|$)|\/v1\/admin|\?c=d|#e/;

export const HELD_ATTACKS: readonly HostileAttack[] = [
  {
    name: "redirect to plain http",
    bound: "refused, not followed, not retried",
    run: async (lab) => {
      const out = await lab.runtime(
        [value("H!A1", "aave", "fees")],
        { kind: "redirect", to: "http://metrics.example" },
        PROJECTS_PATH
      );
      const asked = out.starts.filter((s) => PROJECTS_PATH.test(s.path)).length;
      const v: string[] = [];
      if (
        out.cells[0].ok ||
        !/refused redirect to http:\/\/metrics\.example/.test(out.cells[0].message)
      )
        v.push(`cell: ${message(out)}`);
      if (asked !== 1) v.push(`${asked} requests for the catalogue, expected 1`);
      const r = runtimeResult(
        "redirect to plain http",
        out,
        lab.key,
        message(out).slice(0, 100),
        v
      );
      return { ...r, requests: asked };
    },
  },
  {
    name: "redirect to itself",
    bound: "refused as a loop, not retried",
    run: async (lab) => {
      const out = await lab.runtime(
        [value("L!A1", "aave", "fees")],
        { kind: "redirect-loop" },
        PROJECTS_PATH
      );
      const asked = out.starts.filter((s) => PROJECTS_PATH.test(s.path)).length;
      const v: string[] = [];
      if (out.cells[0].ok || !/redirect loop/.test(out.cells[0].message))
        v.push(`cell: ${message(out)}`);
      if (asked !== 1) v.push(`${asked} requests for the catalogue, expected 1`);
      const r = runtimeResult("redirect to itself", out, lab.key, message(out).slice(0, 100), v);
      return { ...r, requests: asked };
    },
  },
  {
    name: "__proto__ and constructor.prototype in every object",
    bound: "nothing polluted; the same figures",
    run: async (lab) => {
      const formulas: Formula[] = [
        value("P!A1", "aave", "fees", "2025-03-31", "period=quarter"),
        { address: "P!A2", name: "PROJECT", args: ["aave", "chains"] },
      ];
      const healthy = await lab.runtime(formulas, { kind: "none" });
      const planted = await lab.runtime(formulas, { kind: "proto-keys" });
      const probe = {} as Record<string, unknown>;
      const polluted =
        probe.polluted !== undefined ||
        Object.prototype.hasOwnProperty.call(Object.prototype, "polluted");
      const v: string[] = [];
      if (polluted) v.push("Object.prototype has a member 'polluted'");
      const same = planted.cells.every(
        (c, i) =>
          c.ok && healthy.cells[i].ok && isDeepStrictEqual(c, { ...healthy.cells[i], ms: c.ms })
      );
      if (!same)
        v.push(
          `healthy ${JSON.stringify(healthy.cells)}, planted ${JSON.stringify(planted.cells)}`
        );
      return runtimeResult(
        "__proto__ and constructor.prototype in every object",
        planted,
        lab.key,
        `${polluted ? "Object.prototype polluted" : "nothing polluted"}; ${same ? "the same figures" : "figures differ"}`,
        v
      );
    },
  },
  {
    name: "ids that would change a URL",
    bound: "percent-encoded in every request",
    run: async (lab) => {
      const ids = [...URL_CHANGING_IDS];
      const formulas: Formula[] = [
        ...ids.map((id, i) => value(`U!A${i + 1}`, id, "fees")),
        { address: "U!B1", name: "METRIC", args: [[...ids, "aave"].map((id) => [id]), "fees"] },
      ];
      const out = await lab.runtime(formulas, { kind: "ids", ids }, PROJECTS_PATH);
      const lines = lab.service.seen.map((s) => s.path);
      const v: string[] = [];
      const raw = lines.filter((l) => UNENCODED.test(l));
      if (raw.length > 0) v.push(`unencoded: ${raw.slice(0, 3).join(" ")}`);
      const encoded = lines.filter((l) => /aave%26metric_ids%3Dx/.test(l)).length;
      if (encoded === 0) v.push(`no request carried an encoded id: ${lines.slice(0, 5).join(" ")}`);
      return runtimeResult(
        "ids that would change a URL",
        out,
        lab.key,
        `${lines.length} requests, ${encoded} with aave%26metric_ids%3Dx, ${raw.length === 0 ? "none" : raw.length} unencoded; ${message(out).slice(0, 60)}`,
        v
      );
    },
  },
];
