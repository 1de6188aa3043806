/**
 * A part whose code is loaded the first time it is needed (a chunk of its own on the Excel page, a require
 * under Node): one load however many callers ask, shared by reference (the engine's cache-only view sees the
 * part its engine loaded), and what it loaded readable without waiting once it has arrived.
 */
export class OnFirstUse<T> {
  private loading: Promise<T> | undefined;
  /** The part once loaded; undefined before (or when its load failed). */
  current: T | undefined;

  constructor(private readonly load: () => Promise<T>) {}

  /** Whether anything has asked for the part yet. */
  get asked(): boolean {
    return this.loading !== undefined;
  }

  /** The part, loaded by the first call; a load that fails rejects this call and every later one. */
  get(): Promise<T> {
    this.loading ??= this.load().then((part) => (this.current = part));
    return this.loading;
  }
}
