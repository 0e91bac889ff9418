import type { IncomingMessage } from 'node:http';
import {
  OAuth2Server,
  type MutableRedirectUri,
  type MutableResponse,
  type MutableToken,
} from 'oauth2-mock-server';

/** Who the next sign-in at the stand-in is, as the provider would say it in the ID token. */
export interface OidcIdentity {
  /** The provider's stable account id (`sub`). */
  sub: string;
  email: string;
  /** Whether the provider has verified the address; true unless said otherwise. */
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

/** The one client the stand-in knows, as registered at a real provider. */
export interface OidcClient {
  clientId: string;
  clientSecret: string;
}

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
 * A local OpenID provider (oauth2-mock-server) standing in for an organisation's identity provider:
 * discovery, signing keys, an authorization endpoint that approves at once as the identity the test
 * named with signInAs, and a token endpoint that checks the client's secret and issues an ID token
 * for that identity (with the portal's nonce). A portal reading its discovery when it starts needs
 * it started first.
 */
export class OidcStandIn {
  private readonly server = new OAuth2Server();
  private address: string | undefined;
  private next: OidcIdentity | undefined;
  private readonly identityByCode = new Map<string, OidcIdentity>();
  readonly authorizations: AuthorizationRequest[] = [];

  protected constructor(readonly client: OidcClient) {
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
      if (!code || !identity || query.get('client_id') !== client.clientId) {
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
      if (id !== client.clientId || secret !== client.clientSecret) {
        response.statusCode = 401;
        response.body = { error: 'invalid_client' };
      } else if (!known) {
        response.statusCode = 400;
        response.body = { error: 'invalid_grant' };
      }
    });
  }

  /**
   * Starts on a free loopback port with a fresh signing key, knowing one client. Its issuer is its
   * address, unless the test has it announce another one in its discovery document.
   */
  static async start(options: OidcClient & { announcedIssuerPath?: string }): Promise<OidcStandIn> {
    const standIn = new OidcStandIn({ clientId: options.clientId, clientSecret: options.clientSecret });
    await standIn.listen(options.announcedIssuerPath);
    return standIn;
  }

  protected async listen(announcedIssuerPath = '') {
    await this.server.issuer.keys.generate('RS256');
    await this.server.start(0, '127.0.0.1');
    const address = `http://127.0.0.1:${this.server.address().port}`;
    this.address = address;
    this.server.issuer.url = `${address}${announcedIssuerPath}`;
  }

  /** Where it answers (its discovery document is under /.well-known/openid-configuration). */
  get issuer(): string {
    if (!this.address || !this.server.listening) throw new Error('the OpenID stand-in is not running');
    return this.address;
  }

  get origin(): string {
    return new URL(this.issuer).origin;
  }

  /** The portal's settings to reach this stand-in: a loopback IdP must be trusted explicitly. */
  get portalEnv(): Record<string, string> {
    return { SSO_TRUSTED_IDP_ORIGINS: this.origin };
  }

  /** The next authorization approves at once as this identity (once); without one it is denied. */
  signInAs(identity: OidcIdentity) {
    this.next = identity;
  }

  /** An ID token for the client signed with the stand-in's key, as a provider hands a page one. */
  idTokenFor(identity: OidcIdentity): Promise<string> {
    return this.server.issuer.buildToken({
      scopesOrTransform: (_header, payload) => {
        Object.assign(payload, {
          aud: this.client.clientId,
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
