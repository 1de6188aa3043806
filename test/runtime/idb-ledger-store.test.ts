/**
 * @jest-environment jsdom
 */
/** The add-in's restatement ledger: IndexedDB (fake-indexeddb in jsdom), as a page reopened later meets it. */
import "../support/jsdom-polyfills";
import "fake-indexeddb/auto";
import { webcrypto } from "crypto";
import { IdbLedgerStore } from "../../src/runtime/idb-ledger-store";
import { ledgerStoreContract } from "../engine/ledger/store-contract";

// jsdom leaves Web Crypto out; the add-in's page (https, a secure context) has it, and the ledger seals with it.
Object.defineProperty(globalThis, "crypto", { value: webcrypto, configurable: true });

let databases = 0;

ledgerStoreContract("the add-in's IndexedDB ledger", async () => {
  // A database of its own per test: fake-indexeddb keeps them for the whole file.
  const name = `cryptometrics-ledger-test-${++databases}`;
  return () => new IdbLedgerStore(name);
});

describe("the add-in's IndexedDB ledger", () => {
  it("lives in a database of its own, apart from the saved answers", async () => {
    const store = new IdbLedgerStore();
    await store.append("ns", "2026-11-24", ["x"]);
    expect(store.location).toBe('IndexedDB database "cryptometrics-ledger" of the add-in\'s page');
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toContain("cryptometrics-ledger");
    expect(names).not.toContain("cryptometrics-cache");
    store.close();
  });
});
