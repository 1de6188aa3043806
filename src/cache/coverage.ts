/** Which days of a series have been fetched: a sorted list of disjoint closed intervals of day numbers. */
export type Interval = readonly [number, number];

export class Coverage {
  private intervals: Array<[number, number]> = [];

  add(start: number, end: number): void {
    if (end < start) return;
    const merged: Array<[number, number]> = [];
    let [s, e] = [start, end];
    for (const [a, b] of this.intervals) {
      // Adjacent days join too: [1,3] + [4,6] covers [1,6].
      if (b + 1 < s || e + 1 < a) merged.push([a, b]);
      else [s, e] = [Math.min(s, a), Math.max(e, b)];
    }
    merged.push([s, e]);
    merged.sort((x, y) => x[0] - y[0]);
    this.intervals = merged;
  }

  covers(start: number, end: number): boolean {
    return this.intervals.some(([a, b]) => a <= start && end <= b);
  }

  get isEmpty(): boolean {
    return this.intervals.length === 0;
  }

  list(): Interval[] {
    return this.intervals.map(([a, b]) => [a, b] as const);
  }
}
