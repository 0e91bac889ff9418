import {
  CreateNetworkRequestSchema,
  FirstActivityQuerySchema,
  OPERATOR_API_PREFIX,
  REGIONAL_SESSION_CHECK_PATH,
  SdkSessionRequestSchema,
  UpdateNetworkRequestSchema,
  UsageQuerySchema,
} from '@portal/contracts';
import { z } from 'zod';
import {
  ENABLED_AUTH_ENDPOINTS,
  GOOGLE_ENDPOINTS,
  SSO_ENDPOINTS,
} from '../src/modules/identity/identity.routes.ts';
import type { JsonSchema } from './bad-inputs.ts';

/** What a caller with credentials sends: the portal session, or a route's own kind of credential. */
export type Credential =
  'session' | 'region admin token' | 'operator token' | 'access token' | 'region session' | 'api key';

export interface Operation {
  method: string;
  /** The path template with `{name}` placeholders, as in the OpenAPI document. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
  credential: Credential;
  /** Signed in, it would end the caller's session for the cases after it. */
  anonymousOnly?: boolean;
  /** A page for people, not an API answer: only the status is checked. */
  answersHtml?: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** The JSON Schema of what a request may send (the input side of any transform). */
function bodyOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The identity endpoints: listed below, with the bodies better-auth takes and sign-out anonymous only. */
const IDENTITY_PREFIX = '/api/auth/';
/** Pages for people under the API prefixes. */
const HTML_PAGES = new Set(['/dev/mailbox/', '/api/v1/invoices/{id}.pdf']);

function credentialOf(path: string): Credential {
  if (path === REGIONAL_SESSION_CHECK_PATH) return 'region admin token';
  return path.startsWith(`${OPERATOR_API_PREFIX}/`) ? 'operator token' : 'session';
}

function fromDocument(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths)
    .filter(([path]) => !path.startsWith(IDENTITY_PREFIX))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: (operation.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map(({ name, schema }) => ({ name, schema })),
        body: operation.requestBody?.content?.['application/json']?.schema,
        credential: credentialOf(path),
        answersHtml: HTML_PAGES.has(path),
      })),
    );
}

const text: JsonSchema = { type: 'string' };
const email: JsonSchema = { type: 'string', format: 'email' };
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
});

/** The bodies better-auth documents for its endpoints; one not listed gets an address only. */
const IDENTITY_BODIES: Record<string, JsonSchema> = {
  '/sign-up/email': object({ email, password: text, name: text }),
  '/sign-in/email': object({ email, password: text, rememberMe: { type: 'boolean' } }),
  '/sign-out': object({}),
  '/email-otp/send-verification-otp': object({ email, type: { enum: ['email-verification'] } }),
  '/email-otp/verify-email': object({ email, otp: text }),
  '/email-otp/request-password-reset': object({ email }),
  '/email-otp/reset-password': object({ email, otp: text, password: text }),
  '/two-factor/enable': object({ password: text }),
  '/two-factor/disable': object({ password: text }),
  '/two-factor/verify-totp': object({ code: text }),
  '/two-factor/verify-backup-code': object({ code: text }),
  '/update-user': object({ name: text, image: text }),
  '/change-password': object({
    currentPassword: text,
    newPassword: text,
    revokeOtherSessions: { type: 'boolean' },
  }),
  '/sign-in/email-otp': object({ email, otp: text }),
  '/sign-in/social': object({
    provider: { enum: ['google'] },
    callbackURL: text,
    errorCallbackURL: text,
    newUserCallbackURL: text,
  }),
  '/sign-in/sso': object({ organizationSlug: text, callbackURL: text, errorCallbackURL: text }),
  // The SAML identity provider's form, as JSON here (and as a form when the content type is fuzzed).
  '/sso/saml2/sp/acs/{providerId}': object({ SAMLResponse: text, RelayState: text }),
};

/** The query an identity provider's redirect brings back to the callback (Google's, an organisation's). */
const CALLBACK_QUERY: Operation['query'] = ['code', 'state', 'error', 'error_description', 'iss'].map(
  (name) => ({ name, schema: text }),
);

/** Queries of identity endpoints, by path. */
const IDENTITY_QUERIES: Record<string, Operation['query']> = {
  '/callback/google': CALLBACK_QUERY,
  '/sso/callback/{providerId}': CALLBACK_QUERY,
  '/sso/saml2/sp/metadata': [{ name: 'providerId', schema: text }],
};

/** better-auth endpoints the portal keeps closed: they must answer a clean 404, whatever the body. */
const CLOSED_IDENTITY_ENDPOINTS: { path: string; method: string }[] = [
  ...[
    '/update-user',
    '/change-password',
    '/sign-in/email-otp',
    '/two-factor/get-totp-uri',
    '/two-factor/generate-backup-codes',
    '/two-factor/send-otp',
    '/two-factor/verify-otp',
    // The SSO plugin's own administration and single logout: the portal's /api/v1/sso stands instead.
    '/sso/register',
    '/sso/update-provider',
    '/sso/delete-provider',
    '/sso/verify-domain',
    '/sso/request-domain-verification',
    '/sso/saml2/sp/slo/{providerId}',
  ].map((path) => ({ path, method: 'POST' })),
  ...['/sso/providers', '/sso/get-provider', '/sso/callback', '/sso/saml2/logout/{providerId}'].map(
    (path) => ({
      path,
      method: 'GET',
    }),
  ),
];

/** The identity endpoints (better-auth's `:name` path parameters as `{name}`); Google's only when configured. */
function identityOperations(google: boolean): Operation[] {
  const enabled = {
    ...ENABLED_AUTH_ENDPOINTS,
    ...SSO_ENDPOINTS,
    ...(google ? GOOGLE_ENDPOINTS : {}),
  };
  const endpoints = [
    ...Object.entries(enabled).map(([path, { method }]) => ({
      path: path.replace(/:(\w+)/g, '{$1}'),
      method,
    })),
    ...CLOSED_IDENTITY_ENDPOINTS,
  ];
  return endpoints.map(({ path, method }) => ({
    method,
    path: `/api/auth${path}`,
    pathParams: pathParamsOf(path),
    query: IDENTITY_QUERIES[path] ?? [],
    body: method === 'POST' ? (IDENTITY_BODIES[path] ?? object({ email })) : undefined,
    credential: 'session',
    // Signing out ends the session; turning two-factor authentication off replaces it.
    anonymousOnly: path === '/sign-out' || path === '/two-factor/disable',
  }));
}

/** The names of a path template's `{name}` placeholders. */
function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

function queryOf(schema: z.ZodObject): Operation['query'] {
  const { properties = {} } = bodyOf(schema);
  return Object.entries(properties).map(([name, property]) => ({ name, schema: property }));
}

/** The EU region's emulator as the portal hosts it, its schemas taken from the shared contracts. */
const REGION: Omit<Operation, 'pathParams'>[] = [
  {
    method: 'POST',
    path: '/regions/eu/admin/v1/networks',
    query: [],
    body: bodyOf(CreateNetworkRequestSchema),
    credential: 'region admin token',
  },
  {
    method: 'GET',
    path: '/regions/eu/admin/v1/networks/{networkId}',
    query: [],
    credential: 'region admin token',
  },
  {
    method: 'PUT',
    path: '/regions/eu/admin/v1/networks/{networkId}',
    query: [],
    body: bodyOf(UpdateNetworkRequestSchema),
    credential: 'region admin token',
  },
  {
    method: 'POST',
    path: '/regions/eu/admin/v1/networks/{networkId}/deactivate',
    query: [],
    credential: 'region admin token',
  },
  {
    method: 'POST',
    path: '/regions/eu/admin/v1/networks/{networkId}/reactivate',
    query: [],
    credential: 'region admin token',
  },
  {
    method: 'GET',
    path: '/regions/eu/admin/v1/usage',
    query: queryOf(UsageQuerySchema),
    credential: 'region admin token',
  },
  {
    method: 'POST',
    path: '/regions/eu/api/v2/sso/{portal}',
    query: [{ name: 'applicationId', schema: text }],
    credential: 'access token',
  },
  {
    method: 'GET',
    path: '/regions/eu/network/first-activity',
    query: queryOf(FirstActivityQuerySchema),
    credential: 'region session',
  },
  { method: 'GET', path: '/regions/eu/admin/v1/network/apikey', query: [], credential: 'region session' },
  {
    method: 'POST',
    path: '/regions/eu/sdk/v1/sessions',
    query: [],
    body: bodyOf(SdkSessionRequestSchema),
    credential: 'api key',
  },
  {
    method: 'GET',
    path: '/regions/eu/console/{networkId}',
    query: [],
    credential: 'region session',
    answersHtml: true,
  },
  // The console tab's sign-in: the portal's page posts the regional session as a form field.
  {
    method: 'POST',
    path: '/regions/eu/console/{networkId}',
    query: [],
    body: bodyOf(z.object({ session: z.string() })),
    credential: 'region session',
    answersHtml: true,
  },
];

/**
 * Prometheus's scrape endpoint, left out of the document (its answer is text): the fuzzed calls come
 * from loopback, which it answers, and a portal session is nothing to it.
 */
const METRICS: Operation = {
  method: 'GET',
  path: '/metrics',
  pathParams: [],
  query: [],
  credential: 'session',
};

/** Every route of the OpenAPI document, the identity endpoints behind its wildcard, the EU region's and the metrics. */
export function operations(document: OpenApiDocument): Operation[] {
  const region = REGION.map((operation) => ({ ...operation, pathParams: pathParamsOf(operation.path) }));
  const google = Object.keys(document.paths).includes(`${IDENTITY_PREFIX}callback/google`);
  return [...fromDocument(document), ...identityOperations(google), ...region, METRICS];
}
