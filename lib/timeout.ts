/**
 * `p`, or a rejection with `onTimeout()` if it has not settled after `ms`. The timer is
 * cleared either way. No Node or browser APIs beyond timers: used on both sides.
 */
export function withTimeout<T>(p: PromiseLike<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(onTimeout()), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
