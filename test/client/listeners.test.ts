/**
 * Listeners: each told in the order it subscribed; one that throws stops neither the others nor the teller;
 * a listener may unsubscribe while being told without another being skipped.
 */
import { Listeners } from "../../src/client";

describe("Listeners", () => {
  it("tells every listener in order, past one that throws, until it unsubscribes", () => {
    const listeners = new Listeners<number>();
    const heard: string[] = [];
    listeners.add((n) => heard.push(`a${n}`));
    listeners.add(() => {
      throw new Error("a page's bug");
    });
    const stopC = listeners.add((n) => heard.push(`c${n}`));
    expect(() => listeners.tell(1)).not.toThrow();
    stopC();
    listeners.tell(2);
    expect(heard).toEqual(["a1", "c1", "a2"]);
  });

  it("tells every listener subscribed when told, even one removed by another meanwhile", () => {
    const listeners = new Listeners<string>();
    const heard: string[] = [];
    let stopSecond = (): void => undefined;
    listeners.add(() => stopSecond());
    stopSecond = listeners.add((news) => heard.push(news));
    listeners.tell("first");
    listeners.tell("second");
    expect(heard).toEqual(["first"]);
  });
});
