/**
 * The listeners to one kind of news (a sign-in state, a batch of restatements): told in the order they
 * subscribed, over a copy of the list, so that a listener may unsubscribe itself or another while being told.
 * A listener that throws stops neither the others nor the code that told them: what a page or a count does
 * with the news is never a reason for the sign-in or the record to fail.
 */
export class Listeners<T> {
  private readonly listeners = new Set<(news: T) => void>();

  /** Adds a listener; returns the function that removes it. */
  add(listener: (news: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(news: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(news);
      } catch {
        // A listener's failure is its own (see above).
      }
    }
  }
}
