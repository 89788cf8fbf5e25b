/**
 * What a `multipart/form-data` form says in its headers: the boundary of the Content-Type, the
 * parameters of a header value (quoted-string escapes, RFC 8187 `name*=` values), and the field name and
 * file name of a part's Content-Disposition (RFC 7578 §4.2).
 */

/** What a part's head says that a form reader needs. */
export interface PartHead {
  /** The form field name (`name=` of Content-Disposition). */
  readonly name: string;
  /** The file name for a file part (`filename*=` wins over `filename=`), without any path; else undefined. */
  readonly filename: string | undefined;
}

/**
 * Whether a Content-Type names `multipart/form-data` (in any case, its parameters aside), the media type
 * of an upload (§4.1); `multipart/form-data-x` does not.
 */
export const isFormData = (contentType: string): boolean =>
  (contentType.split(';')[0] ?? '').trim().toLowerCase() === 'multipart/form-data';

/**
 * The boundary of a `multipart/form-data` Content-Type, or undefined when it has none or a malformed one
 * (RFC 2046: 1 to 70 characters).
 *
 * @example
 * boundaryOf('multipart/form-data; boundary="abc"'); // 'abc'
 */
export function boundaryOf(contentType: string): string | undefined {
  const value = parameters(contentType).get('boundary');
  return value !== undefined && value.length >= 1 && value.length <= 70 ? value : undefined;
}

/**
 * The `; name=value` parameters of a header value (lowercased names, unquoted values, the first of a
 * name winning). `name*=` (RFC 8187: `charset'language'percent-encoded`) is decoded and kept under
 * `name*`; one that does not decode is left out, so that the plain parameter stands.
 *
 * @example
 * parameters(`; filename="a.wav"; filename*=UTF-8''%C3%A9.wav`).get('filename*'); // 'é.wav'
 */
export function parameters(header: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of header.matchAll(pattern)) {
    const name = (match[1] as string).toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
    const value = name.endsWith('*') ? extendedValue(raw) : raw;
    if (value !== undefined && !found.has(name)) found.set(name, value);
  }
  return found;
}

/** An RFC 8187 value (`charset'language'%xx…`); UTF-8 and ISO-8859-1 are the charsets a client sends. */
function extendedValue(raw: string): string | undefined {
  const match = /^([^']*)'[^']*'(.*)$/.exec(raw);
  if (!match) return undefined;
  const charset = (match[1] as string).toLowerCase();
  const encoded = match[2] as string;
  try {
    if (charset === 'utf-8' || charset === 'utf8') return decodeURIComponent(encoded);
    if (charset === 'iso-8859-1' || charset === 'latin1')
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
  } catch {
    // a broken escape or bytes that are not UTF-8: no value
  }
  return undefined;
}

/**
 * The extension of a file name, lowercased, without the dot; '' when there is none. A name that only
 * starts with a dot (`.wav`) has none, as for a file system; the judge leaves such a name unjudged.
 */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 || dot === fileName.length - 1 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/**
 * A string of its own: a part of a longer one (a regex group, a slice) keeps the whole alive in V8, and a
 * name kept from a part's head must not keep the head's 16 KiB.
 */
const ownCopy = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/**
 * `text` cut to at most `max` characters, its start (or with `end`, its end: a file name's extension),
 * as a string of its own (see ownCopy): what a reader keeps of a part's name for a journal or a report.
 *
 * @example
 * keptName('file', 256); // 'file'
 */
export const keptName = (text: string, max: number, end = false): string =>
  text.length <= max ? text : ownCopy(end ? text.slice(-max) : text.slice(0, max));

/** A file name as a client may send it with a path (`C:\dir\a.wav`): the last segment only. */
const baseName = (name: string): string =>
  name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);

/**
 * The field of one part, from its head (the header lines, CRLF-separated, folded lines joined), or
 * undefined for a part that is not a named form-data field (a reader skips it).
 *
 * @example
 * partHead('Content-Disposition: form-data; name="file"; filename="a.wav"'); // { name: 'file', filename: 'a.wav' }
 */
export function partHead(head: string): PartHead | undefined {
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^form-data\s*(;|$)/i.test(value)) return undefined;
    const params = parameters(value.slice('form-data'.length));
    const name = params.get('name');
    if (name === undefined) return undefined;
    const filename = params.get('filename*') ?? params.get('filename');
    return {
      name: ownCopy(name),
      filename: filename === undefined ? undefined : ownCopy(baseName(filename)),
    };
  }
  return undefined;
}
