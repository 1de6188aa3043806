/** The CLI's restatement ledger: real files in a temporary directory. */
import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { FileLedgerStore, MAX_SEGMENT_BYTES } from "../../../src/cli/cache/restatement-files";
import { RestatementLedger } from "../../../src/engine/ledger/ledger";
import { ledgerStoreContract } from "../../engine/ledger/store-contract";

/** Inside this file's own temporary directory (test/support/environment.cjs), removed when the file ends. */
function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "ledger-"));
}

ledgerStoreContract("the CLI's ledger files", async () => {
  const dir = tempDir();
  return () => new FileLedgerStore(dir);
});

const NS = "https://metrics.example#3f2a";

function namespaceDir(dir: string): string {
  const [name] = readdirSync(join(dir, "restatements")).filter((n) => /^[0-9a-f]{32}$/.test(n));
  return join(dir, "restatements", name);
}

describe("the CLI's ledger files", () => {
  it("live under restatements/, one private file per day, named by a hash of the namespace", async () => {
    const dir = tempDir();
    await new FileLedgerStore(dir).append(NS, "2026-11-24", ["seal {}"]);
    const ns = namespaceDir(dir);
    expect(readdirSync(ns)).toEqual(["2026-11-24.jsonl"]);
    expect(readFileSync(join(ns, "2026-11-24.jsonl"), "utf8")).toBe("seal {}\n");
    expect(statSync(join(ns, "2026-11-24.jsonl")).mode & 0o777).toBe(0o600);
    // No part of the namespace (a service's address) names a file.
    expect(JSON.stringify(readdirSync(join(dir, "restatements")))).not.toContain("metrics.example");
  });

  it("never follows a link where a day's file should be", async () => {
    const dir = tempDir();
    const store = new FileLedgerStore(dir);
    await store.append(NS, "2026-11-24", ["first"]);
    const target = join(tempDir(), "elsewhere.txt");
    writeFileSync(target, "someone else's file\n");
    symlinkSync(target, join(namespaceDir(dir), "2026-11-25.jsonl"));
    await expect(store.append(NS, "2026-11-25", ["through the link"])).rejects.toThrow(/ELOOP/);
    expect(readFileSync(target, "utf8")).toBe("someone else's file\n");
    expect(await store.read(NS, "2026-11-25")).toBeUndefined();
    // A link is no day of the ledger: not listed, not counted.
    expect((await store.segments(NS)).map((s) => s.id)).toEqual(["2026-11-24"]);
  });

  it("reads a day's file too large to be its own as damaged, so the ledger drops it with a note", async () => {
    const dir = tempDir();
    const store = new FileLedgerStore(dir);
    const notes: string[] = [];
    const ledger = new RestatementLedger({
      store,
      namespace: async () => NS,
      now: () => Date.UTC(2026, 10, 26),
      onNote: (n) => notes.push(n),
    });
    await store.append(NS, "2026-11-24", ["x"]);
    writeFileSync(
      join(namespaceDir(dir), "2026-11-24.jsonl"),
      Buffer.alloc(MAX_SEGMENT_BYTES + 1, 97)
    );
    expect((await ledger.view()).size).toBe(0);
    expect(notes.join("\n")).toMatch(/Dropped 1 damaged day of the record of restatements/);
    expect(await store.segments(NS)).toEqual([]);
  });

  it("leaves what is not the ledger's when cleared", async () => {
    const dir = tempDir();
    const store = new FileLedgerStore(dir);
    await store.append(NS, "2026-11-24", ["x"]);
    writeFileSync(join(namespaceDir(dir), "notes.txt"), "mine");
    await store.clear();
    expect(readdirSync(namespaceDir(dir))).toEqual(["notes.txt"]);
  });
});
