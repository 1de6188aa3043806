import { knownAt } from "../../../src/engine/ledger/timeline";
import type { Change } from "../../../src/engine/ledger/types";
import { notKnownMessage, parseVintage, type Vintage } from "../../../src/engine/ledger/vintage";

const NOW = Date.UTC(2026, 10, 26, 15);

function vintage(text: string): Vintage {
  const v = parseVintage(text, NOW);
  if ("error" in v) throw new Error(v.error);
  return v;
}

describe("vintage=", () => {
  it("reads a date as the end of that UTC day, and a date and time with its zone as that instant", () => {
    expect(vintage("2026-11-20")).toEqual({
      at: Date.UTC(2026, 10, 21) - 1,
      label: "2026-11-20",
      isDay: true,
    });
    expect(vintage("2026-11-20T09:30:00Z").at).toBe(Date.UTC(2026, 10, 20, 9, 30));
    // Options are read in lower case: the zone letter too.
    expect(vintage("2026-11-20t09:30z").at).toBe(Date.UTC(2026, 10, 20, 9, 30));
    expect(vintage("2026-11-20T10:30:00+01:00")).toEqual({
      at: Date.UTC(2026, 10, 20, 9, 30),
      label: "2026-11-20T09:30:00Z",
      isDay: false,
    });
    expect(vintage("2026-11-20T09:30:00.250-0500").at).toBe(Date.UTC(2026, 10, 20, 14, 30, 0, 250));
    // Today: what is known so far.
    expect(vintage("2026-11-26").at).toBe(Date.UTC(2026, 10, 27) - 1);
  });

  it("refuses, in the user's words, what names no instant that has passed", () => {
    const error = (text: string) => (parseVintage(text, NOW) as { error: string }).error;
    expect(error("2026-11-27")).toBe(
      "vintage=2026-11-27 is after today; a vintage is a day (or instant) that has passed"
    );
    expect(error("2026-11-26T16:00:00Z")).toMatch(/is in the future/);
    // The current second is now (a vintage rounded up to the second, asked at once); the next one is not.
    const later = NOW + 250;
    expect(parseVintage("2026-11-26T15:00:01Z", later)).toMatchObject({ at: NOW + 1000 });
    expect((parseVintage("2026-11-26T15:00:01.001Z", later) as { error: string }).error).toMatch(
      /is in the future/
    );
    expect((parseVintage("2026-11-26T15:00:01Z", NOW) as { error: string }).error).toMatch(
      /is in the future/
    );
    expect(error("2026-11-20T09:30")).toBe(
      "vintage=2026-11-20T09:30 has no time zone; add Z for UTC (vintage=2026-11-20T09:30:00Z) or an offset such as +01:00"
    );
    expect(error("2026-02-30")).toMatch(/is not a date; use vintage=YYYY-MM-DD/);
    expect(error("2026-02-30T00:00Z")).toBe(
      "vintage=2026-02-30T00:00Z is not a real date and time"
    );
    expect(error("2026-11-20T24:00Z")).toMatch(/not a real date and time/);
    expect(error("2026-11-20T09:00+15:00")).toMatch(/an offset no time zone has/);
    expect(error("last week")).toMatch(/is not a date/);
    expect(error("")).toMatch(/is not a date/);
  });

  it("says when a figure was first seen, in days for a day and in instants for an instant", () => {
    const seen = Date.UTC(2026, 10, 24, 7, 5, 12);
    const known = knownAt([], { value: 12, seenAt: seen }, vintage("2026-11-20").at);
    expect(known).toEqual({ known: false, firstSeen: seen });
    if (known.known) throw new Error("known");
    expect(notKnownMessage(vintage("2026-11-20"), known)).toBe(
      "not known on 2026-11-20: first seen 2026-11-24"
    );
    expect(notKnownMessage(vintage("2026-11-24T07:00:00Z"), known)).toBe(
      "not known at 2026-11-24T07:00:00Z: first seen 2026-11-24T07:05:12Z"
    );
    expect(
      notKnownMessage(vintage("2025-01-10"), {
        known: false,
        firstSeen: Date.UTC(2025, 2, 2),
        keptSince: Date.UTC(2025, 1, 1),
      })
    ).toBe(
      "not known on 2025-01-10: first seen 2025-03-02 (changes seen before 2025-02-01 are no longer kept)"
    );
    expect(notKnownMessage(vintage("2025-01-10"), { known: false })).toBe(
      "not known on 2025-01-10: never seen"
    );
  });
});

describe("a figure's timeline", () => {
  const first = Date.UTC(2026, 10, 20, 9);
  const restated = Date.UTC(2026, 10, 21, 9);
  const again = Date.UTC(2026, 10, 23, 9);
  const cell = {
    series: { projectId: "aave", productId: "", metricId: "fees", filter: "" },
    dim: "",
    day: 20_412,
  };
  const changes: Change[] = [
    { ...cell, before: 100, after: 136, beforeSeenAt: first, seenAt: restated, request: "r1" },
    { ...cell, before: 136, after: 68, beforeSeenAt: restated, seenAt: again, request: "r2" },
  ];
  const held = { value: 68, seenAt: again };

  it("gives the value held at each instant: the first figure, then each restatement in turn", () => {
    expect(knownAt(changes, held, vintage("2026-11-20").at)).toEqual({
      known: true,
      value: 100,
      seenAt: first,
    });
    expect(knownAt(changes, held, restated - 1)).toMatchObject({ value: 100 });
    expect(knownAt(changes, held, restated)).toMatchObject({ value: 136 });
    expect(knownAt(changes, held, vintage("2026-11-22").at)).toMatchObject({ value: 136 });
    expect(knownAt(changes, held, NOW)).toMatchObject({ value: 68 });
    // In any order the changes come.
    expect(knownAt([...changes].reverse(), held, restated)).toMatchObject({ value: 136 });
    expect(knownAt(changes, held, first - 1)).toEqual({ known: false, firstSeen: first });
  });

  it("knows a figure the cache no longer holds from its changes alone", () => {
    expect(knownAt(changes, undefined, NOW)).toMatchObject({ value: 68 });
    expect(knownAt([], undefined, NOW)).toEqual({ known: false });
  });
});
