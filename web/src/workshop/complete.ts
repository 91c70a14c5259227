// Key and value completion for variant files, from the JSON Schema the server serves
// (GET /api/schema): the keys the language reads, never a list kept here.
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';

// The subset of JSON Schema read here; $ref and anyOf/oneOf/allOf are followed.
export interface Schema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  enum?: unknown[];
  examples?: unknown[];
  $ref?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

// A node and the alternatives it allows, references resolved within the root document.
function branches(root: Schema, node: Schema | undefined, depth = 0): Schema[] {
  if (!node || depth > 16) return [];
  if (node.$ref?.startsWith('#/')) {
    let target: unknown = root;
    for (const part of node.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return branches(root, target as Schema | undefined, depth + 1);
  }
  return [node, ...[...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])].flatMap((n) => branches(root, n, depth + 1))];
}

// Where a path of keys leads: '[]' steps into a list's items.
export function walk(root: Schema, path: string[]): Schema[] {
  let nodes = branches(root, root);
  for (const step of path) {
    nodes = nodes.flatMap((n) => {
      if (step === '[]') return branches(root, n.items);
      const named = n.properties?.[step];
      if (named) return branches(root, named);
      return typeof n.additionalProperties === 'object' ? branches(root, n.additionalProperties) : [];
    });
  }
  return nodes;
}

const item = /^(\s*)(-\s+)?/;
const key = /^\s*(?:-\s+)?([^\s#:'"{[][^#:]*?)\s*:(?:\s|$)/;

// The keys enclosing a line whose content starts at `indent`, read from the lines above it by
// their indentation (block style; flow maps on one line are not entered).
export function pathAt(lines: string[], indent: number): string[] {
  const path: string[] = [];
  let current = indent;
  for (let n = lines.length - 1; n >= 0 && current > 0; n--) {
    const text = lines[n];
    if (/^\s*(#|$)/.test(text)) continue;
    const [, lead, dash] = item.exec(text)!;
    const name = key.exec(text)?.[1];
    if (dash) {
      if (name && current > lead.length + dash.length) path.unshift(name);
      if (current > lead.length) {
        path.unshift('[]');
        current = lead.length;
      }
    } else if (lead.length < current) {
      if (name) path.unshift(name);
      current = lead.length;
    }
  }
  return path;
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function schemaCompletion(schema: () => Schema | undefined) {
  return (context: CompletionContext): CompletionResult | null => {
    const root = schema();
    if (!root) return null;
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const above: string[] = [];
    for (let n = 1; n < line.number; n++) above.push(context.state.doc.line(n).text);

    const value = /^(\s*)(-\s+)?([\w.-]+):\s+([\w.+-]*)$/.exec(before);
    if (value) {
      const path = pathAt(above, value[1].length);
      if (value[2]) path.push('[]');
      const options: Completion[] = [];
      for (const node of walk(root, [...path, value[3]]))
        // null is in an enum only so that `key: ~` may remove an imported key: nothing to offer.
        for (const v of [...(node.enum ?? []), ...(node.examples ?? [])].filter((v) => v !== null))
          if (!options.some((o) => o.label === text(v))) options.push({ label: text(v), type: 'constant' });
      return options.length ? { from: context.pos - value[4].length, options, validFor: /^[\w.+-]*$/ } : null;
    }

    const keyed = /^(\s*)(-\s+)?([\w-]*)$/.exec(before);
    if (!keyed || (!keyed[3] && !context.explicit)) return null;
    const path = pathAt(above, keyed[1].length);
    const options: Completion[] = [];
    for (const node of walk(root, keyed[2] ? [...path, '[]'] : path))
      for (const [name, sub] of Object.entries(node.properties ?? {}))
        if (!options.some((o) => o.label === name))
          options.push({ label: name, type: 'property', apply: `${name}: `, info: branches(root, sub).find((b) => b.description)?.description });
    return options.length ? { from: context.pos - keyed[3].length, options, validFor: /^[\w-]*$/ } : null;
  };
}
