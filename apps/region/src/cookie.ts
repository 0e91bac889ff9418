/**
 * The regional session cookie, written and read by hand: @fastify/cookie's helpers only work
 * once its plugin is registered, and registering it here would clash with the portal's own
 * registration when the regions are mounted in the portal's app.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface SessionCookieOptions {
  path: string;
  expires: Date;
  /** Secure + SameSite=None on https (the portal calls cross-site); Lax on plain http, where None is refused. */
  secure: boolean;
}

/** Session tokens are base64url, so the value needs no encoding. */
export function sessionCookie(name: string, value: string, options: SessionCookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Expires=${options.expires.toUTCString()}`,
    'HttpOnly',
    options.secure ? 'Secure; SameSite=None' : 'SameSite=Lax',
  ].join('; ');
}
