/**
 * Messages are ICU MessageFormat (FormatJS's intl-messageformat): `{name}` is a parameter,
 * `{count, plural, one {# thing} other {# things}}` picks the form the language's own plural rules
 * (Intl.PluralRules) choose, six of them in Arabic. Numbers are written in the reader's digits:
 * the locale carries them (`ar-u-nu-arab`), and `#` and `{n, number}` follow it.
 *
 * intl-messageformat writes a number given to a plain `{n}` with String(n), western digits always;
 * so each message's plain arguments are renamed once, when it is compiled, to a second name that
 * receives the number already formatted, while plural, select and number arguments keep the raw
 * value they choose a form by.
 */
import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTimeElement,
  parse,
  type MessageFormatElement,
} from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";

export type Params = Record<string, string | number>;

/** The name a plain `{x}` argument is renamed to: it receives x as the reader reads it. */
const shown = (name: string) => `\u0001${name}`;

/** Parses a message as the app reads it: tags (`<b>`) are plain text, never markup. */
export function parseMessage(text: string): MessageFormatElement[] {
  return parse(text, { ignoreTag: true });
}

/** Every parameter a message reads, nested ones (inside a plural's forms) too. */
export function argumentsOf(ast: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of ast) {
    if (isArgumentElement(el) || isNumberElement(el) || isDateElement(el) || isTimeElement(el)) into.add(el.value);
    else if (isPluralElement(el) || isSelectElement(el)) {
      into.add(el.value);
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

function renamePlain(ast: MessageFormatElement[]): MessageFormatElement[] {
  return ast.map((el) => {
    if (isArgumentElement(el)) return { ...el, value: shown(el.value) };
    if (isPluralElement(el) || isSelectElement(el)) {
      const options = Object.fromEntries(Object.entries(el.options).map(([k, o]) => [k, { ...o, value: renamePlain(o.value) }]));
      return { ...el, options };
    }
    return el;
  });
}

interface Compiled {
  format: IntlMessageFormat;
  names: Set<string>;
}

/** Formats a catalogue's messages in one locale, each compiled on first use and kept. */
export function messageFormatter(messages: Record<string, string>, locale: string, num: (n: number) => string) {
  const compiled = new Map<string, Compiled | null>();
  const compile = (key: string): Compiled | null => {
    if (compiled.has(key)) return compiled.get(key)!;
    let c: Compiled | null = null;
    try {
      const ast = parseMessage(messages[key]!);
      c = { format: new IntlMessageFormat(renamePlain(ast), locale, undefined, { ignoreTag: true }), names: argumentsOf(ast) };
    } catch {
      // A message that does not parse is shown as written (the catalogue test keeps there being none).
    }
    compiled.set(key, c);
    return c;
  };
  return (key: string, params: Params = {}): string => {
    const text = messages[key];
    if (text === undefined) return key;
    const c = compile(key);
    if (!c) return text;
    const values: Record<string, string | number> = {};
    for (const name of c.names) {
      const v = params[name];
      // A parameter left out stays visible as `{name}`, as a plain placeholder always did.
      values[shown(name)] = v === undefined ? `{${name}}` : typeof v === "number" ? num(v) : v;
      if (v !== undefined) values[name] = v;
    }
    try {
      return String(c.format.format(values));
    } catch {
      return text; // a plural or select given no value: the words as written beat a blank
    }
  };
}
