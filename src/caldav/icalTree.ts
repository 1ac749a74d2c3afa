/**
 * The served iCalendar text of an object as a tree of components and properties, for what a
 * REPORT asks of it: filters on components, properties and parameters (filters.ts) and the
 * parts of an object `calendar-data` selects (selection.ts). The text is the server's own
 * rendering (well-formed, one object), so a small reader of content lines (RFC 5545 §3.1) does:
 * unfold, split name, parameters (quoted values may hold `;`, `:` and `,`) and value.
 */

export interface IcalProp {
  /** Upper-case. */
  name: string;
  /** Parameter values by upper-case name (a list: `MEMBER="a","b"`), quotes removed. */
  params: ReadonlyMap<string, readonly string[]>;
  /** The value as written (still escaped). */
  value: string;
  /** The whole content line, unfolded, as written. */
  line: string;
}

export interface IcalComp {
  /** Upper-case; the tree's root is `''` and holds the VCALENDAR. */
  name: string;
  props: IcalProp[];
  comps: IcalComp[];
}

/** One unfolded content line → its property, or null when it is not one. */
export function readProp(line: string): IcalProp | null {
  let i = 0;
  while (i < line.length && line[i] !== ';' && line[i] !== ':') i++;
  const name = line.slice(0, i).toUpperCase();
  if (!name || i >= line.length) return null;
  const params = new Map<string, string[]>();
  while (line[i] === ';') {
    const eq = line.indexOf('=', i);
    if (eq < 0) return null;
    const key = line.slice(i + 1, eq).toUpperCase();
    const values: string[] = [];
    i = eq + 1;
    for (;;) {
      let v: string;
      if (line[i] === '"') {
        const close = line.indexOf('"', i + 1);
        if (close < 0) return null;
        v = line.slice(i + 1, close);
        i = close + 1;
      } else {
        const start = i;
        while (i < line.length && line[i] !== ',' && line[i] !== ';' && line[i] !== ':') i++;
        v = line.slice(start, i);
      }
      values.push(v);
      if (line[i] !== ',') break;
      i++;
    }
    params.set(key, values);
  }
  if (line[i] !== ':') return null;
  return { name, params, value: line.slice(i + 1), line };
}

/**
 * The content lines of a text, unfolded (a line starting with a space or tab goes on the one
 * before it), empty ones kept. Native splits and joins, and JavaScript once per line (a body
 * has at most 20,000, icalShape.ts): a regular expression with an optional CR (`/\r?\n/`)
 * cannot skip ahead to a line feed, and read a megabyte of carriage returns at about 100 ms.
 */
export function contentLines(ics: string): string[] {
  const lines = ics.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.charCodeAt(l.length - 1) === 0x0d) lines[i] = l.slice(0, -1);
  }
  let text = lines.join('\n');
  if (text.includes('\n ')) text = text.split('\n ').join('');
  if (text.includes('\n\t')) text = text.split('\n\t').join('');
  return text.split('\n');
}

/** The unfolded content lines of a text, without empty ones. */
export function unfold(ics: string): string[] {
  return contentLines(ics).filter((l) => l !== '');
}

/** The text as a tree (lines that are not properties are skipped). */
export function parseTree(ics: string): IcalComp {
  const root: IcalComp = { name: '', props: [], comps: [] };
  const open: IcalComp[] = [root];
  for (const line of unfold(ics)) {
    const p = readProp(line);
    if (!p) continue;
    const top = open[open.length - 1];
    if (p.name === 'BEGIN') {
      const c: IcalComp = { name: p.value.trim().toUpperCase(), props: [], comps: [] };
      top.comps.push(c);
      open.push(c);
    } else if (p.name === 'END') {
      if (open.length > 1) open.pop();
    } else top.props.push(p);
  }
  return root;
}

/** A component's content lines (BEGIN to END), unfolded. */
export function componentLines(c: IcalComp): string[] {
  return [
    `BEGIN:${c.name}`,
    ...c.props.map((p) => p.line),
    ...c.comps.flatMap(componentLines),
    `END:${c.name}`,
  ];
}

/** TEXT escapes undone (RFC 5545 §3.3.11), for matching what a person wrote. */
export function unescapeValue(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** The first property of a name, or undefined. */
export function firstProp(c: IcalComp, name: string): IcalProp | undefined {
  return c.props.find((p) => p.name === name);
}

/** The first value of a parameter, or undefined. */
export function param(p: IcalProp, name: string): string | undefined {
  return p.params.get(name)?.[0];
}
