/**
 * Sets `key` in `map` as its newest entry, first dropping the oldest entry when the map already holds
 * `max` (Maps iterate in insertion order: the first key is the oldest).
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
