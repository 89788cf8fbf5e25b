/**
 * A Map that holds at most `capacity` entries: when full it is emptied before the next one goes in.
 * For memos of pure results (a parsed URL, a signature), where losing them all at once changes no
 * answer and costs less than tracking which is oldest.
 *
 * `maxKeyLength` bounds it by bytes too: a string key longer than that is not kept (the result is
 * made again next time), so a memo's size is at most `capacity` × what one short key and its value
 * cost, whatever a client sends. Memos fed by requests anyone can send (URLs, voice_url refs) set it:
 * 8,192 keyless requests with 16 KB paths grew a mock by ~1 GB through two memos without it.
 *
 * @example
 * const memo = new KeptMap<string, URL>(512, 256);
 * memo.get(href) ?? memo.set(href, new URL(href));
 */
export class KeptMap<K, V> extends Map<K, V> {
  constructor(
    readonly capacity: number,
    readonly maxKeyLength = Number.POSITIVE_INFINITY,
  ) {
    super();
  }

  override set(key: K, value: V): this {
    if (typeof key === 'string' && key.length > this.maxKeyLength) return this;
    if (this.size >= this.capacity && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
