/** Markup that is already safe to place in a mail's HTML as it is. */
export class SafeMarkup {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeMarkup = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

type Part = SafeMarkup | string | number | readonly Part[];

const place = (part: Part): string =>
  part instanceof SafeMarkup
    ? part.value
    : Array.isArray(part)
      ? part.map(place).join('')
      : escapeMarkup(String(part as string | number));

/**
 * Template tag for MJML and HTML: every value placed in it is escaped unless it is itself
 * markup made by this tag, so a company or partner name can never become markup.
 */
export function markup(strings: TemplateStringsArray, ...values: Part[]): SafeMarkup {
  return new SafeMarkup(strings.reduce((out, text, i) => out + place(values[i - 1]!) + text));
}
