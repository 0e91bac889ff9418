import type { IncomingMessage } from 'node:http';
import {
  OAuth2Server,
  type MutableRedirectUri,
  type MutableResponse,
  type MutableToken,
} from 'oauth2-mock-server';

/** Who the next sign-in at the stand-in is, as Google would say it in the ID token. */
export interface GoogleIdentity {
  /** Google's stable account id (`sub`). */
  sub: string;
  email: string;
  /** Whether Google has verified the address; true unless said otherwise. */
  emailVerified?: boolean;
  name?: string;
}

/** What the portal asked the stand-in's authorization endpoint for. */
export interface AuthorizationRequest {
  clientId: string | null;
  redirectUri: string | null;
  scope: string | null;
  hasNonce: boolean;
  codeChallengeMethod: string | null;
}

export const GOOGLE_TEST_CLIENT = { id: 'portal-test-client', secret: 'portal-test-client-secret' } as const;

type TokenRequestMessage = IncomingMessage & { body?: Record<string, unknown> };

/** The client credentials of a token request: HTTP Basic, else the form's client_id and client_secret. */
function clientCredentials(req: TokenRequestMessage): { id: unknown; secret: unknown } {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    return {
      id: decodeURIComponent(decoded.slice(0, separator)),
      secret: decodeURIComponent(decoded.slice(separator + 1)),
    };
  }
  return { id: req.body?.client_id, secret: req.body?.client_secret };
}

/**
 * A local OpenID provider standing in for Google (oauth2-mock-server): discovery, signing keys,
 * an authorization endpoint that approves at once as the identity the test named with signInAs,
 * and a token endpoint that checks the client's secret and issues an ID token for that identity
 * (with the portal's nonce). The portal reads its discovery when it starts, so start this first.
 */
export class GoogleStandIn {
  private readonly server = new OAuth2Server();
  private address: string | undefined;
  private next: GoogleIdentity | undefined;
  private readonly identityByCode = new Map<string, GoogleIdentity>();
  readonly authorizations: AuthorizationRequest[] = [];

  private constructor() {
    const service = this.server.service;
    service.on('beforeAuthorizeRedirect', (redirect: MutableRedirectUri, req: IncomingMessage) => {
      const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
      this.authorizations.push({
        clientId: query.get('client_id'),
        redirectUri: query.get('redirect_uri'),
        scope: query.get('scope'),
        hasNonce: Boolean(query.get('nonce')),
        codeChallengeMethod: query.get('code_challenge_method'),
      });
      const code = redirect.url.searchParams.get('code');
      const identity = this.next;
      this.next = undefined;
      if (!code || !identity || query.get('client_id') !== GOOGLE_TEST_CLIENT.id) {
        // As if the person closed the consent screen: no code comes back.
        redirect.url.searchParams.delete('code');
        redirect.url.searchParams.set('error', 'access_denied');
        return;
      }
      this.identityByCode.set(code, identity);
    });
    service.on('beforeTokenSigning', (token: MutableToken, req: TokenRequestMessage) => {
      const code = req.body?.code;
      const identity = typeof code === 'string' ? this.identityByCode.get(code) : undefined;
      if (!identity) return;
      Object.assign(token.payload, {
        sub: identity.sub,
        email: identity.email,
        email_verified: identity.emailVerified ?? true,
        name: identity.name ?? identity.email.split('@')[0],
      });
    });
    service.on('beforeResponse', (response: MutableResponse, req: TokenRequestMessage) => {
      const { id, secret } = clientCredentials(req);
      const code = req.body?.code;
      const known = typeof code === 'string' && this.identityByCode.delete(code);
      if (id !== GOOGLE_TEST_CLIENT.id || secret !== GOOGLE_TEST_CLIENT.secret) {
        response.statusCode = 401;
        response.body = { error: 'invalid_client' };
      } else if (!known) {
        response.statusCode = 400;
        response.body = { error: 'invalid_grant' };
      }
    });
  }

  /**
   * Starts on a free loopback port with a fresh signing key. Its issuer is its address, unless the
   * test has it announce another one in its discovery document.
   */
  static async start(options: { announcedIssuerPath?: string } = {}): Promise<GoogleStandIn> {
    const standIn = new GoogleStandIn();
    await standIn.server.issuer.keys.generate('RS256');
    await standIn.server.start(0, '127.0.0.1');
    const address = `http://127.0.0.1:${standIn.server.address().port}`;
    standIn.address = address;
    standIn.server.issuer.url = `${address}${options.announcedIssuerPath ?? ''}`;
    return standIn;
  }

  /** Where it answers (its discovery document is under /.well-known/openid-configuration). */
  get issuer(): string {
    if (!this.address || !this.server.listening) throw new Error('the Google stand-in is not running');
    return this.address;
  }

  /** The portal's settings for Google sign-in through this stand-in. */
  get portalEnv(): Record<string, string> {
    return {
      GOOGLE_ISSUER: this.issuer,
      GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT.id,
      GOOGLE_CLIENT_SECRET: GOOGLE_TEST_CLIENT.secret,
    };
  }

  /** The next authorization approves at once as this identity (once); without one it is denied. */
  signInAs(identity: GoogleIdentity) {
    this.next = identity;
  }

  /** An ID token for the portal's client signed with the stand-in's key, as Google One Tap hands a page one. */
  idTokenFor(identity: GoogleIdentity): Promise<string> {
    return this.server.issuer.buildToken({
      scopesOrTransform: (_header, payload) => {
        Object.assign(payload, {
          aud: GOOGLE_TEST_CLIENT.id,
          sub: identity.sub,
          email: identity.email,
          email_verified: identity.emailVerified ?? true,
        });
      },
    });
  }

  async stop() {
    if (this.server.listening) await this.server.stop();
  }
}
