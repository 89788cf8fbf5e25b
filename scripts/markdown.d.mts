/** A heading of a page, with the anchor GitHub gives it. */
export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly slug: string;
  readonly line: number;
}

/** A link or image target of a page, with its 1-based line. */
export interface Link {
  readonly target: string;
  readonly line: number;
}

export function githubSlug(text: string): string;
export function headings(markdown: string): Heading[];
export function links(markdown: string): Link[];
export function sectionsCited(text: string): string[];
export function listedSections(markdown: string): Map<string, string>;
export function unlinkedSections(markdown: string): { readonly id: string; readonly line: number }[];
export function linkSections(markdown: string, href: (id: string) => string | undefined): string;
export function sectionHref(
  specSectionsMarkdown: string,
  prefix?: string,
): (id: string) => string | undefined;
