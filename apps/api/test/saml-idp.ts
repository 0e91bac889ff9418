import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import {
  Constants,
  Extractor,
  IdentityProvider,
  ServiceProvider,
  type IdentityProviderInstance,
} from 'samlify';
import { generate } from 'selfsigned';

/** Who the next sign-in at the IdP is. */
export interface SamlIdentity {
  /** The subject's NameID, sent in emailAddress format. */
  nameId: string;
  email: string;
  firstName?: string;
  lastName?: string;
  displayName?: string;
}

/** What a service provider's AuthnRequest asked for, as the IdP read it. */
export interface AuthnRequestInfo {
  id: string;
  /** The SP's entity id (the request's Issuer). */
  issuer: string;
  acsUrl: string;
  relayState: string | undefined;
}

export interface SamlResponseOptions {
  /** Signed by a key the SP was never given instead of the IdP's own. */
  signWith?: 'other-key';
  inResponseTo?: string;
  audience?: string;
  /** End of the assertion's validity; it starts five minutes earlier (or now, if later). */
  notOnOrAfter?: Date;
  /** Applied to the XML after signing, so any change breaks the signature. */
  tamper?: (xml: string) => string;
}

/** The HTTP-POST binding's form fields and where they go. */
export interface SamlPost {
  acsUrl: string;
  SAMLResponse: string;
  RelayState: string | undefined;
}

const VALIDITY_MS = 5 * 60_000;
const EMAIL_FORMAT = Constants.namespace.format.emailAddress;

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function page(status: number, body: string): { status: number; html: string } {
  return {
    status,
    html: `<!doctype html><html><head><title>Test SAML IdP</title></head><body>${body}</body></html>`,
  };
}

async function signingKey(): Promise<{ privateKey: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'Test SAML IdP' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  return { privateKey: pems.private, cert: pems.cert };
}

/** Reads an AuthnRequest sent with the HTTP-Redirect binding (deflated, base64) from its URL. */
function readAuthnRequest(redirectUrl: string): AuthnRequestInfo {
  const query = new URL(redirectUrl).searchParams;
  const samlRequest = query.get('SAMLRequest');
  if (!samlRequest) throw new Error('the URL carries no SAMLRequest');
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const { request, issuer } = Extractor.extract(xml, Extractor.loginRequestFields);
  const id = request?.id;
  const acsUrl = request?.assertionConsumerServiceUrl;
  if (typeof id !== 'string' || typeof issuer !== 'string' || typeof acsUrl !== 'string')
    throw new Error('the AuthnRequest lacks its ID, Issuer or AssertionConsumerServiceURL');
  return { id, issuer, acsUrl, relayState: query.get('RelayState') ?? undefined };
}

/**
 * A SAML 2.0 identity provider for tests (samlify, with a certificate made at start): its sign-in
 * URL takes a service provider's AuthnRequest (HTTP-Redirect binding) and answers at once, as the
 * identity the test named with signInAs, with a page posting a signed response (signed assertion
 * inside a signed Response) to the request's AssertionConsumerServiceURL.
 *
 * It reads AuthnRequests with samlify's extractor rather than its parsing flow: the flow needs a
 * module-wide schema validator, and setting one here would replace the one the SSO plugin sets when
 * the portal runs in the same process. Service providers in tests other than the portal must set
 * their own.
 */
export class SamlIdp {
  readonly requests: AuthnRequestInfo[] = [];
  private next: SamlIdentity | undefined;
  private otherKey: Promise<IdentityProviderInstance> | undefined;

  private constructor(
    private readonly server: http.Server,
    private readonly idp: IdentityProviderInstance,
    readonly entityId: string,
    readonly ssoUrl: string,
    readonly certificatePem: string,
  ) {}

  /** Starts on a free loopback port with a fresh key and self-signed certificate. */
  static async start(options: { entityId?: string } = {}): Promise<SamlIdp> {
    const key = await signingKey();
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const entityId = options.entityId ?? `${origin}/idp`;
    const ssoUrl = `${origin}/sso`;
    const idp = SamlIdp.identityProvider(entityId, ssoUrl, key);
    const samlIdp = new SamlIdp(server, idp, entityId, ssoUrl, key.cert);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      samlIdp.answer(new URL(req.url ?? '/', origin).toString()).then(
        ({ status, html }) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html),
        (error: unknown) => res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error)),
      );
    });
    return samlIdp;
  }

  private static identityProvider(
    entityId: string,
    ssoUrl: string,
    key: { privateKey: string; cert: string },
  ): IdentityProviderInstance {
    return IdentityProvider({
      entityID: entityId,
      privateKey: key.privateKey,
      signingCert: key.cert,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: Constants.namespace.binding.redirect, Location: ssoUrl }],
    });
  }

  /** IdP metadata: the entity id, the signing certificate and the HTTP-Redirect sign-in URL. */
  get metadataXml(): string {
    return this.idp.getMetadata();
  }

  /** The portal's settings to reach this IdP: a loopback IdP must be trusted explicitly. */
  get portalEnv(): Record<string, string> {
    return { SSO_TRUSTED_IDP_ORIGINS: new URL(this.ssoUrl).origin };
  }

  /** The next sign-in at the sign-in URL is as this identity (once); without one it is refused. */
  signInAs(identity: SamlIdentity) {
    this.next = identity;
  }

  /**
   * The IdP's answer to the AuthnRequest in a redirect URL, as the form fields its page would post
   * (for API tests without a browser).
   */
  respondTo(
    authnRequestRedirectUrl: string,
    identity: SamlIdentity,
    options: SamlResponseOptions = {},
  ): Promise<SamlPost> {
    return this.respond(readAuthnRequest(authnRequestRedirectUrl), identity, options);
  }

  async stop() {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  private async respond(
    request: AuthnRequestInfo,
    identity: SamlIdentity,
    options: SamlResponseOptions,
  ): Promise<SamlPost> {
    const idp = options.signWith === 'other-key' ? await this.otherKeyIdp() : this.idp;
    // The SP as far as signing goes: samlify signs the assertion and then the whole response.
    const sp = ServiceProvider({
      entityID: request.issuer,
      assertionConsumerService: [{ Binding: Constants.namespace.binding.post, Location: request.acsUrl }],
      wantAssertionsSigned: true,
      wantMessageSigned: true,
    });
    const xml = this.responseXml(request, identity, options);
    const { context } = await idp.createLoginResponse(
      sp,
      { extract: {} },
      'post',
      {},
      // samlify signs whatever this returns: the XML is written here so tests control every field.
      { customTagReplacement: () => ({ id: '', context: xml }) },
    );
    const signed = Buffer.from(context, 'base64').toString('utf8');
    const sent = options.tamper ? options.tamper(signed) : signed;
    return {
      acsUrl: request.acsUrl,
      SAMLResponse: Buffer.from(sent, 'utf8').toString('base64'),
      RelayState: request.relayState,
    };
  }

  private otherKeyIdp(): Promise<IdentityProviderInstance> {
    this.otherKey ??= signingKey().then((key) => SamlIdp.identityProvider(this.entityId, this.ssoUrl, key));
    return this.otherKey;
  }

  private async answer(url: string): Promise<{ status: number; html: string }> {
    const { pathname } = new URL(url);
    if (pathname !== '/sso') return page(404, '<p>Not found.</p>');
    const request = readAuthnRequest(url);
    this.requests.push(request);
    const identity = this.next;
    this.next = undefined;
    if (!identity)
      return page(403, '<h1>Access denied</h1><p>No one is signed in at this identity provider.</p>');
    const post = await this.respond(request, identity, {});
    const relayState =
      post.RelayState === undefined
        ? ''
        : `<input type="hidden" name="RelayState" value="${escapeXml(post.RelayState)}">`;
    return page(
      200,
      `<form method="post" action="${escapeXml(post.acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${post.SAMLResponse}">${relayState}` +
        '<noscript><button type="submit">Continue</button></noscript></form>' +
        '<script>document.forms[0].submit()</script>',
    );
  }

  private responseXml(
    request: AuthnRequestInfo,
    identity: SamlIdentity,
    options: SamlResponseOptions,
  ): string {
    const notOnOrAfter = options.notOnOrAfter ?? new Date(Date.now() + VALIDITY_MS);
    const issued = new Date(Math.min(Date.now(), notOnOrAfter.getTime() - VALIDITY_MS)).toISOString();
    const until = notOnOrAfter.toISOString();
    const inResponseTo = escapeXml(options.inResponseTo ?? request.id);
    const acsUrl = escapeXml(request.acsUrl);
    const issuer = `<saml:Issuer>${escapeXml(this.entityId)}</saml:Issuer>`;
    // The names @better-auth/sso reads by default (email, givenName, surname, displayName), so a
    // provider registered without an attribute mapping gets them.
    const attributes = Object.entries({
      email: identity.email,
      givenName: identity.firstName,
      surname: identity.lastName,
      displayName: identity.displayName,
    })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
          `<saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    return (
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ' +
      'xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
      `ID="_${randomUUID()}" Version="2.0" IssueInstant="${issued}" Destination="${acsUrl}" ` +
      `InResponseTo="${inResponseTo}">${issuer}` +
      `<samlp:Status><samlp:StatusCode Value="${Constants.StatusCode.Success}"/></samlp:Status>` +
      '<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      'xmlns:xs="http://www.w3.org/2001/XMLSchema" ' +
      `ID="_${randomUUID()}" Version="2.0" IssueInstant="${issued}">${issuer}` +
      `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${escapeXml(identity.nameId)}</saml:NameID>` +
      '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
      `<saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${acsUrl}" ` +
      `InResponseTo="${inResponseTo}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${issued}" NotOnOrAfter="${until}"><saml:AudienceRestriction>` +
      `<saml:Audience>${escapeXml(options.audience ?? request.issuer)}</saml:Audience>` +
      '</saml:AudienceRestriction></saml:Conditions>' +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_${randomUUID()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>${Constants.namespace.authnContextClassRef.passwordProtectedTransport}` +
      '</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>' +
      `<saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion></samlp:Response>`
    );
  }
}
