/** The fields' own checks: what is refused before anything is saved or sent, in plain words. */
import {
  apiKeyProblem,
  dateProblem,
  daysProblem,
  rateLimitNote,
  rateLimitProblem,
  serviceUrlProblem,
} from "../../src/taskpane/model/field-checks";

test("a service address is https, or plain http on this computer only", () => {
  expect(serviceUrlProblem("https://api.example.com")).toBeUndefined();
  expect(serviceUrlProblem("http://127.0.0.1:3001")).toBeUndefined();
  expect(serviceUrlProblem("http://localhost:3001/")).toBeUndefined();
  expect(serviceUrlProblem("foo")).toMatch(/^This is not a web address/);
  expect(serviceUrlProblem("")).toMatch(/^Enter the service address/);
  expect(serviceUrlProblem("http://api.example.com")).toMatch(/^Use https:\/\//);
  expect(serviceUrlProblem("ftp://api.example.com")).toMatch(/starting with https/);
  expect(serviceUrlProblem("https://user:pw@api.example.com")).toMatch(/user name and password/);
  expect(serviceUrlProblem("https://api.example.com/?x=1")).toMatch(/\? and #/);
});

test("a rate limit is a whole number from 1 to 6000", () => {
  expect(rateLimitProblem("60")).toBeUndefined();
  expect(rateLimitProblem(" 6000 ")).toBeUndefined();
  for (const bad of ["0", "6001", "1.5", "-3", "", "sixty"])
    expect(rateLimitProblem(bad)).toMatch(/whole number of requests per minute/);
});

test("a pasted key is not empty and has no spaces", () => {
  expect(apiKeyProblem("cm_abc123")).toBeUndefined();
  expect(apiKeyProblem("  ")).toMatch(/Paste your API key/);
  expect(apiKeyProblem("cm abc")).toMatch(/contains spaces/);
});

test("a typed date is YYYY-MM-DD and a day of the calendar; days back are a whole number", () => {
  expect(dateProblem("2024-02-29")).toBeUndefined();
  expect(dateProblem("2023-02-29")).toBe("2023-02-29 is not a day of the calendar.");
  expect(dateProblem("2024-13-45")).toMatch(/not a day of the calendar/);
  expect(dateProblem("1/2/2024")).toMatch(/^Enter the date as YYYY-MM-DD/);
  expect(daysProblem("365")).toBeUndefined();
  expect(daysProblem("0")).toBeUndefined();
  expect(daysProblem("36501")).toMatch(/from 0 to 36500/);
  expect(daysProblem("-1")).toMatch(/whole number of days/);
});

describe("a rate above the service's", () => {
  it("is kept with a note saying what it risks; up to 60 nothing is said", () => {
    expect(rateLimitNote(60)).toBeUndefined();
    expect(rateLimitNote(30)).toBeUndefined();
    expect(rateLimitNote(1000)).toBe(
      "1,000 a minute is more than the 60 the service allows a key: keep it only if your plan gives you that many (past its limit the service answers 429 and cells wait)."
    );
  });
});
