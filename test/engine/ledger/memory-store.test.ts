import { MemoryLedgerStore } from "../../../src/engine/ledger/store";
import { ledgerStoreContract } from "./store-contract";

// One store in memory is one process's: every handle on a place is the same store.
ledgerStoreContract("the in-memory ledger store", async () => {
  const store = new MemoryLedgerStore();
  return () => store;
});
