/** The page's DOM helpers: one element builder and the few shapes the page repeats. */

export type Child = Node | string | null | undefined | false;

/** An element with attributes (`on…` functions become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | EventListener | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** A titled part of a panel, with its count (if any) beside the title. */
export const section = (title: string, count: HTMLElement | null, ...children: Child[]) =>
  h('section', {}, h('h3', {}, title, count && ' ', count), ...children);

export const table = (heads: string[], body: HTMLTableSectionElement) =>
  h('table', {}, h('thead', {}, h('tr', {}, ...heads.map((head) => h('th', { scope: 'col' }, head)))), body);

/** A labelled input of a dialog (a number unless told), its value sent under `name`. */
export const field = (name: string, label: string, value: string, type = 'number') =>
  h(
    'p',
    {},
    h('label', { for: `field-${name}` }, label),
    ' ',
    h('input', { id: `field-${name}`, name, type, value, required: true, min: 0, step: 'any' }),
  );

export function button(label: string, onclick: () => void, hint?: string) {
  return h('button', { type: 'button', title: hint, onclick: () => onclick() }, label);
}
