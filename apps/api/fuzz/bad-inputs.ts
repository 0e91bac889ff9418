import type { Random } from './random.ts';

/** The slice of JSON Schema the request schemas use. */
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

/**
 * A value the schema accepts, or close to it: the starting point that mutations spoil.
 * `fieldSamples` gives, by field name, values a schema alone cannot produce (ids that exist, a
 * country code where only a pattern says so).
 */
export function sampleOf(
  schema: JsonSchema | undefined,
  random: Random,
  fieldSamples: Record<string, unknown> = {},
  depth = 0,
): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return random.pick(schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return sampleOf(random.pick(variants), random, fieldSamples, depth + 1);
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
      return [sampleOf(schema.items, random, fieldSamples, depth + 1)];
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        value[key] =
          key in fieldSamples
            ? structuredClone(fieldSamples[key])
            : sampleOf(property, random, fieldSamples, depth + 1);
      }
      return value;
    }
    case 'null':
      return null;
    default:
      return 'fuzz';
  }
}

/** Nested arrays `depth` deep, built as text because a literal would not fit in the source. */
function nestedArrays(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
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
  '\u0001\u0002\u0003',
  '\u0007bell',
  '\u001b[31m',
  '\u007f',
  'line\r\nbreak',
  '\ud800',
  'tail\udfff',
  '\udc00\ud800',
  'x'.repeat(100_000),
  '𝓤𝓷𝓲𝓬𝓸𝓭𝓮 👩‍💻 עברית',
  '\u202eevil\u202c',
  '\ufeff',
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
  nestedArrays(1000),
  JSON.parse('{"__proto__": {"polluted": true}}'),
];

/** Keys a body should not carry: pollution, privilege and ownership fields, odd text. */
const EXTRA_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'organizationId',
  'role',
  'roleIds',
  'emailVerified',
  'isAdmin',
  '',
  'key\u0000',
  '\ud800',
  'k'.repeat(10_000),
];

/** Sets an own property, even `__proto__`, so JSON.stringify sends it as a plain key. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

/** The dotted paths of every key in a sample body, so a mutation can reach nested fields too. */
export function keyPaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    [...prefix, key],
    ...keyPaths(item, [...prefix, key]),
  ]);
}

/** A copy of the body with the field at `path` set to `replacement`, or removed when it is undefined. */
export function withField(body: unknown, path: string[], replacement: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  if (replacement === undefined) delete target[last];
  else setOwn(target, last, replacement);
  return copy;
}

export type BodyMutation =
  'bad field' | 'missing field' | 'extra field' | 'every field null' | 'body in an array' | 'bad whole body';

const BODY_MUTATIONS: readonly BodyMutation[] = [
  'bad field',
  'bad field',
  'bad field',
  'missing field',
  'extra field',
  'every field null',
  'body in an array',
  'bad whole body',
];

/** The valid body spoiled one way, and which way, for the failure report. */
export function spoilBody(body: unknown, random: Random): { mutation: BodyMutation; body: unknown } {
  const paths = keyPaths(body);
  const mutation = random.pick(BODY_MUTATIONS);
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  if (paths.length === 0 || !isObject) return { mutation: 'bad whole body', body: random.pick(BAD_VALUES) };
  switch (mutation) {
    case 'bad field':
      return { mutation, body: withField(body, random.pick(paths), random.pick(BAD_VALUES)) };
    case 'missing field':
      return { mutation, body: withField(body, random.pick(paths), undefined) };
    case 'extra field':
      return { mutation, body: withField(body, [random.pick(EXTRA_KEYS)], random.pick(BAD_VALUES)) };
    case 'every field null':
      return { mutation, body: Object.fromEntries(Object.keys(body).map((key) => [key, null])) };
    case 'body in an array':
      return { mutation, body: [body] };
    case 'bad whole body':
      return { mutation, body: random.pick(BAD_VALUES) };
  }
}

/** Whole bodies sent as they are with a JSON content type: not JSON, not an object, invalid text, or absurdly deep. */
export const RAW_BODIES: readonly (string | Buffer)[] = [
  'null',
  '[]',
  '"text"',
  '42',
  '{',
  '{"a":',
  '{"a":1}}',
  '\u0000',
  '{"email":"a\u0000b@acme.io"}',
  '{"email":"a\\u0000b@acme.io"}',
  '{"name":"\\ud800"}',
  '{"email":"a@acme.io","email":null}',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
  '',
  ' ',
  `{"big":"${'y'.repeat(300_000)}"}`,
];

/** Content types other than JSON for a JSON body, or JSON said oddly. */
export const OTHER_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/xml',
  'application/octet-stream',
  '',
  'multipart/form-data; boundary=x',
];

/** Query values for any declared parameter, already percent-encoded as they go on the URL. */
export const BAD_QUERY_VALUES: readonly string[] = [
  '',
  '%00',
  'a%00b',
  '%01',
  '%1B%5B31m',
  '%7F',
  '%0D%0A',
  '-1',
  '0',
  '1.5',
  '1e308',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'x'.repeat(10_000),
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%80',
  '%FF%FE',
  '%F0%9F%92%A9',
  '%D7%A2%D7%91%D7%A8%D7%99%D7%AA',
  '%',
  '%zz',
  '..%2F..%2F',
  '[object Object]',
  'true',
  'null',
];

/** Query keys that are not the parameter's plain name: brackets, pollution, control characters. */
export function badQueryKeys(name: string): string[] {
  return [
    `${name}[]`,
    `${name}[a]`,
    `${name}[__proto__]`,
    '__proto__[x]',
    'constructor[prototype][x]',
    `${name}%00`,
    '%00',
    '',
    'unexpected',
  ];
}

/** Path ids: control characters, broken or odd percent-encoding, traversal, lengths, empty-ish. */
export const BAD_PATH_IDS: readonly string[] = [
  '%00',
  'abc%00def',
  '%01',
  '%1F',
  '%7F',
  'x'.repeat(5000),
  '%F0%9F%92%A9',
  '%D7%A2%D7%91%D7%A8%D7%99%D7%AA',
  '%ED%A0%80',
  '%FF',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%2F',
  '%5C',
  '%',
  '%zz',
  '%20',
  '.',
  '~',
  '0',
  '-1',
  '1e308',
  '99999999999999999999999',
  'null',
  'undefined',
  'a%20b',
  '%C3%A9',
  '00000000-0000-0000-0000-000000000000',
  "'%20OR%201=1",
];
