/**
 * What the docs tests and the generators need to know about Markdown: the headings of a page and the
 * anchors GitHub makes of them, the links of a page, and the spec sections docs/spec-sections.md
 * lists. Plain ESM so that scripts run without a TypeScript loader; typed by markdown.d.mts.
 *
 * @example
 * githubSlug('§4.1 Upload a file'); // '41-upload-a-file'
 * sectionsCited('§4.2 rule 1, §7.2'); // ['4.2', '7.2']
 */

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown) {
  const out = [];
  let fence;
  for (const [index, line] of markdown.split('\n').entries()) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    out.push({ line: index + 1, text: line });
  }
  return out;
}

/** A line with its code spans blanked, so that links and § inside `code` are not read. */
function withoutCode(text) {
  return text.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
}

/** The text GitHub shows for inline Markdown: code spans kept as written, links as their text, no emphasis marks. */
function plainText(inline) {
  return inline
    .split(/(`+[^`]*?`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/^`+\s?|\s?`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<[^>]+>/g, '')
            .replace(/(\*{1,3}|\b_{1,3}|_{1,3}\b)/g, ''),
    )
    .join('');
}

/**
 * The anchor GitHub gives a heading's text: lower case, every character that is not a letter, a
 * mark, a digit, `_`, `-` or a space dropped, then each space a `-`.
 */
export function githubSlug(text) {
  return plainText(text)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The ATX headings of a page (`#` to `######`), each with its GitHub anchor; repeats get `-1`, `-2`… */
export function headings(markdown) {
  const seen = new Map();
  const out = [];
  for (const { line, text } of proseLines(markdown)) {
    const match = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (!match) continue;
    const base = githubSlug(match[2]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.push({ level: match[1].length, text: match[2], slug: count === 0 ? base : `${base}-${count}`, line });
  }
  return out;
}

/** Every inline link and image target of a page, outside code: `[text](target)`, `![alt](target "title")`. */
export function links(markdown) {
  const out = [];
  for (const { line, text } of proseLines(markdown)) {
    for (const match of withoutCode(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ target: match[1], line });
    }
    for (const match of withoutCode(text).matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)) {
      out.push({ target: match[1], line });
    }
  }
  return out;
}

/** A § of the spec; a § of another document (`RFC 6716 §3.1`) is not one. */
const citation = /(?<!RFC \d+ )§(\d+(?:\.\d+)?)/g;

/** The sections of the spec a text cites: '§4.2 rule 1, §7.2' → ['4.2', '7.2']. */
export function sectionsCited(text) {
  return [...text.matchAll(citation)].map((m) => m[1]);
}

/**
 * The sections docs/spec-sections.md lists, each with the anchor of its heading: a heading that
 * starts with `§4.1` lists 4.1; an item `**§1.3**` under the heading of §1 lists 1.3 (at §1's anchor).
 */
export function listedSections(markdown) {
  const sections = new Map();
  const byLine = headings(markdown);
  let current;
  for (const { line, text } of proseLines(markdown)) {
    const heading = byLine.find((h) => h.line === line);
    if (heading) {
      const id = /^§(\d+(?:\.\d+)?)\s/.exec(heading.text)?.[1];
      current = id === undefined ? undefined : { id, slug: heading.slug };
      if (current) sections.set(current.id, current.slug);
      continue;
    }
    if (!current) continue;
    for (const match of text.matchAll(/\*\*§(\d+\.\d+)\*\*/g)) {
      if (match[1].startsWith(`${current.id}.`)) sections.set(match[1], current.slug);
    }
  }
  return sections;
}

/** [start, end) ranges of a line that a § there does not cite: code spans, links, `**§1.3**` items. */
function maskedRanges(text) {
  const ranges = [];
  for (const pattern of [/(`+)[^`]*?\1/g, /!?\[[^\]]*\]\([^)]*\)/g, /\*\*§\d+(?:\.\d+)?\*\*/g]) {
    for (const m of text.matchAll(pattern)) ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

/** § citations of a prose line that are not links (nor code, nor the `**§1.3**` items of spec-sections.md). */
function bareCitations(text) {
  if (/^ {0,3}#{1,6}\s/.test(text)) return [];
  const masked = maskedRanges(text);
  return [...text.matchAll(citation)]
    .filter((m) => !masked.some(([from, to]) => m.index >= from && m.index < to))
    .map((m) => ({ id: m[1], index: m.index, length: m[0].length }));
}

/** The § citations of a page that are not links to their section, with their lines. */
export function unlinkedSections(markdown) {
  return proseLines(markdown).flatMap(({ line, text }) =>
    bareCitations(text).map(({ id }) => ({ id, line })),
  );
}

/**
 * Makes each § citation of a page a link to its section: `§4.2` → `[§4.2](href('4.2'))`. Citations in
 * code, in headings and in links stay as they are; so does one for which `href` gives undefined.
 */
export function linkSections(markdown, href) {
  const prose = new Set(proseLines(markdown).map(({ line }) => line));
  return markdown
    .split('\n')
    .map((text, index) => {
      if (!prose.has(index + 1)) return text;
      let out = text;
      for (const { id, index: at, length } of bareCitations(text).reverse()) {
        const target = href(id);
        if (target !== undefined) out = `${out.slice(0, at)}[§${id}](${target})${out.slice(at + length)}`;
      }
      return out;
    })
    .join('\n');
}

/**
 * The link of each section docs/spec-sections.md lists, as written in a page of `docs/`:
 * `sectionHref(text)('4.2')` → 'spec-sections.md#42-save-a-voice'; `prefix` is the path from the page.
 */
export function sectionHref(specSectionsMarkdown, prefix = 'spec-sections.md') {
  const listed = listedSections(specSectionsMarkdown);
  return (id) => {
    const slug = listed.get(id);
    return slug === undefined ? undefined : `${prefix}#${slug}`;
  };
}
