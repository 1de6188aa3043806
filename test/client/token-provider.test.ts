/**
 * The token provider behind every call in Team gateway mode: silent renewal, one at a time; calls that wait
 * for a renewal (or for the user to sign in again) instead of failing, within a deadline; never an interactive
 * sign-in from a call; Sign out forgets the account and lets no call wait on.
 */
import {
  CryptometricsError,
  InteractionRequired,
  TokenProvider,
  type AccessToken,
  type TokenSource,
} from "../../src/client";
import { fakeClock, type FakeClock, flushPromises, MIDDAY_2026 } from "../support/clock";

const ACCOUNT = { username: "alice@firm.example", name: "Alice Analyst" };

/** A sign-in port whose answers the test releases one by one. */
class FakeSource implements TokenSource {
  silentCalls = 0;
  interactiveCalls = 0;
  signedOut = 0;
  private pending: Array<{ resolve: (t: AccessToken) => void; reject: (e: unknown) => void }> = [];
  constructor(private readonly time: FakeClock) {}
  silent(): Promise<AccessToken> {
    this.silentCalls++;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }
  interactive(): Promise<AccessToken> {
    this.interactiveCalls++;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }
  signOut(): Promise<void> {
    this.signedOut++;
    return Promise.resolve();
  }
  give(token: string, lifeMs = 3_600_000): void {
    this.pending.shift()?.resolve({ token, expiresAt: this.time.now() + lifeMs, account: ACCOUNT });
  }
  refuse(error: unknown = new InteractionRequired("login required")): void {
    this.pending.shift()?.reject(error);
  }
}

function setUp(): { time: FakeClock; source: FakeSource; provider: TokenProvider } {
  const time = fakeClock(MIDDAY_2026, { held: true });
  const source = new FakeSource(time);
  const provider = new TokenProvider({
    source,
    now: time.now,
    timers: time.timers,
    waitMs: 60_000,
  });
  return { time, source, provider };
}

it("signs in silently at start when it can, and many cells then share one token", async () => {
  const { source, provider } = setUp();
  const restoring = provider.restore();
  expect(provider.state.status).toBe("signing-in");
  const cells = Promise.all([provider.token(), provider.token(), provider.token()]);
  await flushPromises();
  source.give("t1");
  await restoring;
  expect(await cells).toEqual(["t1", "t1", "t1"]);
  expect(source.silentCalls).toBe(1);
  expect(provider.state).toEqual({ status: "signed-in", account: ACCOUNT });
});

it("renews before expiry once, however many calls ask meanwhile, and they wait for it", async () => {
  const { time, source, provider } = setUp();
  const signing = provider.signIn();
  await flushPromises();
  source.give("t1", 10 * 60_000);
  await signing;
  await time.advance(6 * 60_000); // within the last five minutes: renewed before use
  const calls = Promise.all([provider.token(), provider.token()]);
  await flushPromises();
  expect(source.silentCalls).toBe(2);
  source.give("t2");
  expect(await calls).toEqual(["t2", "t2"]);
  expect(source.interactiveCalls).toBe(0);
});

it("never shows a sign-in from a call: when renewal needs the user, calls wait for the taskpane's sign-in", async () => {
  const { time, source, provider } = setUp();
  const signing = provider.signIn();
  await flushPromises();
  source.give("t1", 60_000);
  await signing;
  const call = provider.token();
  await flushPromises();
  source.refuse();
  await flushPromises();
  expect(provider.state).toMatchObject({ status: "renewal-failed", account: ACCOUNT });
  expect(source.interactiveCalls).toBe(0);
  // The user clicks Sign in: silent fails again, the interactive one succeeds, the waiting call goes on.
  const again = provider.signIn();
  await flushPromises();
  source.refuse();
  await flushPromises();
  expect(source.interactiveCalls).toBe(1);
  source.give("t3");
  await again;
  expect(await call).toBe("t3");
  expect(time.timersPending).toBe(0);
});

it("fails a waiting call in plain words when nobody signs in within its wait", async () => {
  const { time, source, provider } = setUp();
  const signing = provider.signIn();
  await flushPromises();
  source.give("t1", 60_000);
  await signing;
  const call = provider.token();
  await flushPromises();
  source.refuse();
  const failure = call.catch((e: unknown) => e);
  await time.advance(60_000);
  const error = (await failure) as CryptometricsError;
  expect(error).toBeInstanceOf(CryptometricsError);
  expect(error.kind).toBe("unauthorized");
  expect(error.message).toMatch(/sign in again/);
});

it("says a signed-out user must sign in, at once, and Sign out forgets the account", async () => {
  const { source, provider } = setUp();
  await expect(provider.token()).rejects.toMatchObject({ kind: "unauthorized" });
  const signing = provider.signIn();
  await flushPromises();
  source.refuse(new Error("not cached"));
  await flushPromises();
  source.give("t1");
  await signing;
  expect(await provider.token()).toBe("t1");
  await provider.signOut();
  expect(source.signedOut).toBe(1);
  expect(provider.state.status).toBe("signed-out");
  await expect(provider.token()).rejects.toMatchObject({ kind: "unauthorized" });
});

it("reports a sign-in the user closed, and stays signed out", async () => {
  const { source, provider } = setUp();
  const signing = provider.signIn();
  await flushPromises();
  source.refuse();
  await flushPromises();
  source.refuse(new Error("the user closed the window"));
  expect(await signing).toEqual({
    status: "signed-out",
    message: "Sign-in did not finish: the user closed the window",
  });
});
