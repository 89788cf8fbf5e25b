/**
 * How deep JSON nests, found without recursion, so that a hostile file or value is refused before
 * anything that recurses (JSON.stringify, a structured clone, a schema walk) meets it. Platform-free.
 */

/**
 * True when the JSON text nests arrays and objects deeper than `max` levels. One pass over the text,
 * strings skipped; it stops at the first level too deep.
 *
 * @example
 * jsonTextTooDeep('[[[]]]', 2); // true
 */
export function jsonTextTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * True when a value (parsed JSON, or an object a caller built) nests objects and arrays deeper than
 * `max` levels. Walked with a stack of its own; a cycle counts as too deep.
 *
 * @example
 * valueTooDeep({ a: [{}] }, 2); // true
 */
export function valueTooDeep(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
