/**
 * What `make` builds from `key`, built once per key and kept as long as the key is (a catalogue's index, the
 * series variant of an options object). `make` is a module's own function, so a call (a warm cell's, among
 * them) allocates nothing once the key has its value.
 */
export function keptFor<K extends object, V>(kept: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  let v = kept.get(key);
  if (v === undefined) {
    v = make(key);
    kept.set(key, v);
  }
  return v;
}
