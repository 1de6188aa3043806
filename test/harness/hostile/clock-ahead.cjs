/**
 * Preloaded (node --require) into a CLI process to run it with its clock CLOCK_OFFSET_MS ahead (default an
 * hour): what a machine whose clock was wrong, or a run "the next day", does. Date.now() and `new Date()`
 * move; timers do not (they are not wall-clock times).
 */
const offset = Number(process.env.CLOCK_OFFSET_MS ?? 3_600_000);
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

globalThis.Date = new Proxy(RealDate, {
  construct(target, args) {
    return args.length === 0 ? new target(realNow() + offset) : Reflect.construct(target, args);
  },
  get(target, property, receiver) {
    if (property === "now") return () => realNow() + offset;
    return Reflect.get(target, property, receiver);
  },
});
