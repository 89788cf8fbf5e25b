/**
 * A Map that holds at most `capacity` entries: when full it is emptied before the next one goes in.
 * For memos of pure results (a parsed URL, a signature), where losing them all at once changes no
 * answer and costs less than tracking which is oldest.
 *
 * @example
 * const memo = new KeptMap<string, URL>(512);
 * memo.get(href) ?? memo.set(href, new URL(href));
 */
export class KeptMap<K, V> extends Map<K, V> {
  constructor(readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.capacity && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
