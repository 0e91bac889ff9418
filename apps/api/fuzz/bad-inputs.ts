import type { Random } from './random.ts';

/** The slice of JSON Schema the OpenAPI document's request schemas use. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** A value the schema accepts, or close to it: the starting point that mutations spoil. */
export function sampleOf(schema: JsonSchema | undefined, random: Random, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return random.pick(schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return sampleOf(random.pick(variants), random, depth + 1);
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return `fuzz${random.int(1000)}@acme.io`;
      return 'Fuzz1!'.padEnd(Math.max(schema.minLength ?? 1, 12), 'aA1!').slice(0, schema.maxLength ?? 64);
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [sampleOf(schema.items, random, depth + 1)];
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) value[key] = sampleOf(property, random, depth + 1);
      return value;
    }
    case 'null':
      return null;
    default:
      return 'fuzz';
  }
}

/** Values no field should take without a clean 4xx: wrong types, extremes, control characters, odd text. */
export const BAD_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007bell',
  '\u001b[31m',
  '\u007f',
  '\ud800',
  'tail\udfff',
  'x'.repeat(100_000),
  '𝓤𝓷𝓲𝓬𝓸𝓭𝓮 👩‍💻 עברית',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '{{7*7}}',
  [],
  [null],
  ['\u0000'],
  {},
  { nested: { deeper: ['\u0000'] } },
  JSON.parse('{"__proto__": {"polluted": true}}'),
];

/** Whole bodies sent as raw text with a JSON content type: not JSON, not an object, or absurdly deep. */
export const RAW_BODIES: readonly string[] = [
  'null',
  '[]',
  '"text"',
  '42',
  '{',
  '{"a":',
  '{"a":1}}',
  '\u0000',
  '{"email":"a\\u0000b@acme.io"}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  '',
  `{"big":"${'y'.repeat(300_000)}"}`,
];

/** Query values for any declared parameter. */
export const BAD_QUERY_VALUES: readonly string[] = [
  '',
  '%00',
  'a%00b',
  '-1',
  '0',
  '1.5',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'x'.repeat(10_000),
  '%E0%A4%A',
  '%F0%9F%92%A9',
  '%',
  '[object Object]',
  'true',
];

/** Path ids: control characters, broken or odd percent-encoding, traversal, lengths. */
export const BAD_PATH_IDS: readonly string[] = [
  '%00',
  'abc%00def',
  '%01',
  'x'.repeat(5000),
  '%F0%9F%92%A9',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%',
  '%zz',
  '0',
  '-1',
  'null',
  'a%20b',
  '%C3%A9',
  '00000000-0000-0000-0000-000000000000',
  "'%20OR%201=1",
];

/** The dotted paths of every key in a sample body, so a mutation can reach nested fields too. */
export function keyPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...keyPaths(item, [...prefix, key])]);
}

/** A copy of the body with the field at `path` set to `replacement`, or removed when it is undefined. */
export function withField(body: unknown, path: string[], replacement: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  if (replacement === undefined) delete target[last];
  else target[last] = replacement;
  return copy;
}
