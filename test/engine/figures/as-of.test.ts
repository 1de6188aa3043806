/** "Latest" values and their dates (src/engine/figures/as-of.ts). */
import { dayNumber } from "../../../src/client/data/days";
import { ageInDays, archivedMessage, tooOldMessage } from "../../../src/engine/figures/as-of";

const d = dayNumber;

describe("an archived project's latest value", () => {
  it("is refused naming the archive, its last day with data and the reason", () => {
    expect(
      archivedMessage(
        { projectId: "anchor-protocol", archivedReason: " Sunset. " },
        d("2022-05-13")
      )
    ).toBe(
      "anchor-protocol is archived since 2022-05-13 (Sunset.); give a date to read its history"
    );
    expect(archivedMessage({ projectId: "x" }, undefined, "no more")).toBe(
      "x is archived; no more"
    );
    expect(archivedMessage({ projectId: "x", archivedReason: "  " }, undefined)).toBe(
      "x is archived; give a date to read its history"
    );
  });

  it("cuts a long reason so the advice still fits Excel's message", () => {
    const reason = "r".repeat(200);
    const message = archivedMessage({ projectId: "x", archivedReason: reason }, d("2022-05-13"));
    expect(message).toBe(
      `x is archived since 2022-05-13 (${"r".repeat(79)}…); give a date to read its history`
    );
    const exact = archivedMessage({ projectId: "x", archivedReason: "r".repeat(80) }, undefined);
    expect(exact).toBe(`x is archived (${"r".repeat(80)}); give a date to read its history`);
  });
});

describe("maxage", () => {
  it("refuses a latest value older than the days allowed, and counts its age", () => {
    expect(ageInDays(d("2026-11-18"), d("2026-11-23"))).toBe(5);
    expect(
      tooOldMessage("sushiswap tvl value", d("2026-11-18"), d("2026-11-23"), 7)
    ).toBeUndefined();
    expect(
      tooOldMessage("sushiswap tvl value", d("2026-11-16"), d("2026-11-23"), 7)
    ).toBeUndefined();
    expect(tooOldMessage("sushiswap tvl value", d("2026-11-18"), d("2026-11-23"), 3)).toBe(
      "the latest sushiswap tvl value is from 2026-11-18, 5 days before today (maxage=3d)"
    );
    expect(tooOldMessage("x", d("2026-11-22"), d("2026-11-23"), 0)).toBe(
      "the latest x is from 2026-11-22, 1 day before today (maxage=0d)"
    );
  });
});
