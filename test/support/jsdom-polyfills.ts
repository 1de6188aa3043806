/**
 * What Node has and jest's jsdom environment leaves out, for tests of browser code over fake-indexeddb:
 * structuredClone (fake-indexeddb copies values with it) and TextEncoder. Import before fake-indexeddb.
 */
import { deserialize, serialize } from "v8";
import { TextDecoder, TextEncoder } from "util";

const target = globalThis as Record<string, unknown>;
target.structuredClone ??= <T>(value: T): T => deserialize(serialize(value)) as T;
target.TextEncoder ??= TextEncoder;
target.TextDecoder ??= TextDecoder;
