// C0 controls other than tab, line feed and carriage return, and DEL. NUL cannot be stored in a
// PostgreSQL text column at all, and none of them belongs in a name, an address or an id.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** True when the text holds a control character that no field of the portal accepts. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/**
 * The dotted path of the first string in a parsed JSON value (body, query or params) that holds a
 * control character, checking object keys too; undefined when there is none. `root` names the value
 * itself when it is a bare string.
 */
export function findControlCharacter(value: unknown, root = 'body'): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasControlCharacter(current)) return path || root;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) =>
        stack.push({ value: item, path: path ? `${path}.${index}` : String(index) }),
      );
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const itemPath = path ? `${path}.${key}` : key;
        if (hasControlCharacter(key)) return itemPath;
        stack.push({ value: item, path: itemPath });
      }
    }
  }
  return undefined;
}

/** The first field of a request's params, query or body holding a control character, named `source.path`. */
export function findControlCharacterInRequest(request: {
  params: unknown;
  query: unknown;
  body: unknown;
}): string | undefined {
  for (const source of ['params', 'query', 'body'] as const) {
    const field = findControlCharacter(request[source], source);
    if (field !== undefined) return field;
  }
  return undefined;
}
