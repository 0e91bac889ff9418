import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import { isPublicRoutableHost } from '@better-auth/core/utils/host';
import type { TestSsoConnectionRequest } from '@portal/contracts';
import samlify from 'samlify';
import { AppError } from '../../errors.ts';

/** How long the portal waits for an identity provider's discovery document or keys. */
const FETCH_TIMEOUT_MS = 5_000;
/** Discovery documents and key sets are small; a larger answer is not one. */
const MAX_DOCUMENT_BYTES = 512 * 1024;

const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

type OidcInput = Extract<TestSsoConnectionRequest, { protocol: 'oidc' }>;
type SamlInput = Extract<TestSsoConnectionRequest, { protocol: 'saml' }>;

/** The OIDC settings @better-auth/sso reads: endpoints stored, so it never rediscovers at sign-in. */
export interface StoredOidcConfig {
  issuer: string;
  pkce: true;
  clientId: string;
  clientSecret: string;
  discoveryEndpoint: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksEndpoint: string;
  tokenEndpointAuthentication: 'client_secret_basic' | 'client_secret_post';
  scopes: string[];
}

/** The SAML settings @better-auth/sso reads. */
export interface StoredSamlConfig {
  issuer: string;
  entryPoint: string;
  cert: string;
  idpMetadata: { metadata: string } | { entityID: string; cert: string; singleSignOnService: { Binding: string; Location: string }[] };
  spMetadata: { entityID: string };
  wantAssertionsSigned: true;
  authnRequestsSigned: false;
  identifierFormat: string;
}

export interface CheckedConnection<Config> {
  issuer: string;
  config: Config;
  /** What was found, shown on the page after a test. */
  details: Record<string, string>;
}

function failed(message: string, field?: string): AppError {
  return new AppError('SSO_CONNECTION_FAILED', { message, field });
}

/**
 * The portal fetches only identity providers on the public internet, or on a private network whose
 * origin the operator trusts (SSO_TRUSTED_IDP_ORIGINS): a super-admin must not make the server call
 * its own neighbours. Plain http is allowed only for a trusted origin.
 */
async function assertFetchable(address: string, trustedOrigins: readonly string[], field: string): Promise<URL> {
  const url = URL.canParse(address) ? new URL(address) : undefined;
  if (!url || !/^https?:$/.test(url.protocol)) throw failed(`${address} is not a web address.`, field);
  if (trustedOrigins.includes(url.origin)) return url;
  if (url.protocol !== 'https:') throw failed('The identity provider must be reached over https.', field);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isPublicRoutableHost(host)
    ? await dns.lookup(host, { all: true }).catch(() => {
        throw failed(`${host} could not be found.`, field);
      })
    : [{ address: host }];
  if (addresses.some(({ address }) => !isPublicRoutableHost(address)))
    throw failed(
      `${host} is on a private network. The portal's operator must trust its origin before it can be used.`,
      field,
    );
  return url;
}

async function fetchJson(url: URL, what: string, field: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch {
    throw failed(`The ${what} at ${url.href} could not be reached.`, field);
  }
  if (!response.ok) throw failed(`The ${what} at ${url.href} answered HTTP ${response.status}.`, field);
  const text = await response.text();
  if (text.length > MAX_DOCUMENT_BYTES) throw failed(`The ${what} at ${url.href} is too large.`, field);
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below with the same message as any other non-object answer.
  }
  throw failed(`The ${what} at ${url.href} is not JSON.`, field);
}

const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, '');

/**
 * An OpenID provider: its discovery document names this issuer and the endpoints sign-in needs, and
 * its signing keys can be read. The client secret can only be proven by a real sign-in.
 */
export async function checkOidcProvider(
  input: OidcInput,
  clientSecret: string,
  trustedOrigins: readonly string[],
): Promise<CheckedConnection<StoredOidcConfig>> {
  const issuer = withoutTrailingSlash(input.issuer);
  const discoveryEndpoint = `${issuer}/.well-known/openid-configuration`;
  const discovery = await fetchJson(
    await assertFetchable(discoveryEndpoint, trustedOrigins, 'issuer'),
    'discovery document',
    'issuer',
  );
  if (typeof discovery.issuer !== 'string' || withoutTrailingSlash(discovery.issuer) !== issuer)
    throw failed(`The discovery document names another issuer (${String(discovery.issuer)}).`, 'issuer');
  const endpoint = (name: string) => {
    const value = discovery[name];
    if (typeof value !== 'string' || !URL.canParse(value))
      throw failed(`The discovery document has no ${name}.`, 'issuer');
    return value;
  };
  const authorizationEndpoint = endpoint('authorization_endpoint');
  const tokenEndpoint = endpoint('token_endpoint');
  const jwksEndpoint = endpoint('jwks_uri');
  await assertFetchable(tokenEndpoint, trustedOrigins, 'issuer');
  const keys = await fetchJson(await assertFetchable(jwksEndpoint, trustedOrigins, 'issuer'), 'signing keys', 'issuer');
  if (!Array.isArray(keys.keys) || keys.keys.length === 0)
    throw failed('The identity provider publishes no signing keys.', 'issuer');
  const authMethods = Array.isArray(discovery.token_endpoint_auth_methods_supported)
    ? discovery.token_endpoint_auth_methods_supported
    : ['client_secret_basic'];
  const tokenEndpointAuthentication =
    authMethods.includes('client_secret_basic') || !authMethods.includes('client_secret_post')
      ? 'client_secret_basic'
      : 'client_secret_post';
  return {
    issuer: typeof discovery.issuer === 'string' ? discovery.issuer : issuer,
    config: {
      issuer: typeof discovery.issuer === 'string' ? discovery.issuer : issuer,
      pkce: true,
      clientId: input.clientId,
      clientSecret,
      discoveryEndpoint,
      authorizationEndpoint,
      tokenEndpoint,
      jwksEndpoint,
      tokenEndpointAuthentication,
      scopes: ['openid', 'email', 'profile'],
    },
    details: {
      issuer: typeof discovery.issuer === 'string' ? discovery.issuer : issuer,
      authorizationEndpoint,
      tokenEndpoint,
      jwksEndpoint,
      signingKeys: String(keys.keys.length),
    },
  };
}

/** A PEM certificate from pasted text: with or without its BEGIN/END lines and line breaks. */
function readCertificate(text: string, field: string): crypto.X509Certificate {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '');
  try {
    const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
    return new crypto.X509Certificate(pem);
  } catch {
    throw failed('The signing certificate is not a valid X.509 certificate.', field);
  }
}

/** Fingerprint and expiry of the IdP's signing certificate, as IdPs show them. */
export function describeCertificate(pem: string) {
  const certificate = readCertificate(pem, 'certificate');
  return {
    certificateFingerprint: certificate.fingerprint256,
    certificateExpiresAt: new Date(certificate.validTo).toISOString(),
  };
}

function assertCurrent(certificate: crypto.X509Certificate, field: string) {
  if (new Date(certificate.validTo).getTime() < Date.now())
    throw failed(`The signing certificate expired on ${new Date(certificate.validTo).toISOString().slice(0, 10)}.`, field);
}

/** samlify's reading of IdP metadata: entity id, sign-in URL (HTTP-Redirect) and signing certificate. */
function readIdpMetadata(xml: string) {
  let entity: ReturnType<typeof samlify.IdentityProvider>;
  try {
    entity = samlify.IdentityProvider({ metadata: xml });
  } catch {
    throw failed('The metadata is not SAML identity-provider metadata.', 'metadataXml');
  }
  const meta = entity.entityMeta;
  // samlify names bindings by their short names ('redirect').
  const services = meta.getSingleSignOnService('redirect');
  const entryPoint = typeof services === 'string' ? services : undefined;
  const signing = meta.getX509Certificate('signing');
  const certificate = Array.isArray(signing) ? signing[0] : signing;
  const entityId = meta.getEntityID();
  if (!entityId) throw failed('The metadata has no entity ID.', 'metadataXml');
  if (!entryPoint) throw failed('The metadata has no sign-in URL with the HTTP-Redirect binding.', 'metadataXml');
  if (typeof certificate !== 'string' || !certificate) throw failed('The metadata has no signing certificate.', 'metadataXml');
  return { entityId, entryPoint, certificate };
}

/**
 * A SAML identity provider from its metadata or from the three values typed in: a sign-in URL the
 * portal may send people to, an entity id, and a signing certificate that is valid today.
 */
export async function checkSamlProvider(
  input: SamlInput,
  serviceProviderEntityId: string,
  trustedOrigins: readonly string[],
): Promise<CheckedConnection<StoredSamlConfig>> {
  const fromMetadata = input.metadataXml ? readIdpMetadata(input.metadataXml) : undefined;
  const entityId = fromMetadata?.entityId ?? input.entityId ?? '';
  const entryPoint = fromMetadata?.entryPoint ?? input.entryPoint ?? '';
  const certificateText = fromMetadata?.certificate ?? input.certificate ?? '';
  if (!fromMetadata) {
    if (!entryPoint) throw new AppError('VALIDATION_ERROR', { message: 'validation.sso.entryPoint', field: 'entryPoint' });
    if (!entityId) throw new AppError('VALIDATION_ERROR', { message: 'validation.sso.entityId', field: 'entityId' });
    if (!certificateText)
      throw new AppError('VALIDATION_ERROR', { message: 'validation.sso.certificate', field: 'certificate' });
  }
  const field = fromMetadata ? 'metadataXml' : 'entryPoint';
  await assertFetchable(entryPoint, trustedOrigins, field);
  const certificate = readCertificate(certificateText, fromMetadata ? 'metadataXml' : 'certificate');
  assertCurrent(certificate, fromMetadata ? 'metadataXml' : 'certificate');
  const cert = certificate.toString();
  return {
    issuer: entityId,
    config: {
      issuer: entityId,
      entryPoint,
      cert,
      idpMetadata: fromMetadata
        ? { metadata: input.metadataXml ?? '' }
        : { entityID: entityId, cert, singleSignOnService: [{ Binding: HTTP_REDIRECT_BINDING, Location: entryPoint }] },
      spMetadata: { entityID: serviceProviderEntityId },
      wantAssertionsSigned: true,
      authnRequestsSigned: false,
      identifierFormat: EMAIL_NAME_ID_FORMAT,
    },
    details: {
      entityId,
      entryPoint,
      certificateFingerprint: certificate.fingerprint256,
      certificateExpiresAt: new Date(certificate.validTo).toISOString(),
    },
  };
}
