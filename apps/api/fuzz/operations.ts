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
import { ENABLED_AUTH_ENDPOINTS, GOOGLE_ENDPOINTS } from '../src/modules/identity/identity.routes.ts';
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
};

/** The query Google's redirect brings back to the callback. */
const CALLBACK_QUERY: Operation['query'] = ['code', 'state', 'error', 'error_description', 'iss'].map(
  (name) => ({ name, schema: text }),
);

/** better-auth endpoints the portal keeps closed: they must answer a clean 404, whatever the body. */
const CLOSED_IDENTITY_PATHS = [
  '/update-user',
  '/change-password',
  '/sign-in/email-otp',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  '/two-factor/send-otp',
  '/two-factor/verify-otp',
];

/** The identity endpoints; Google's only when the portal under test has Google sign-in configured. */
function identityOperations(google: boolean): Operation[] {
  const enabled = google ? { ...ENABLED_AUTH_ENDPOINTS, ...GOOGLE_ENDPOINTS } : ENABLED_AUTH_ENDPOINTS;
  const endpoints = [
    ...Object.entries(enabled).map(([path, { method }]) => ({ path, method })),
    ...CLOSED_IDENTITY_PATHS.map((path) => ({ path, method: 'POST' })),
  ];
  return endpoints.map(({ path, method }) => ({
    method,
    path: `/api/auth${path}`,
    pathParams: [],
    query: path === '/callback/google' ? CALLBACK_QUERY : [],
    body: method === 'POST' ? (IDENTITY_BODIES[path] ?? object({ email })) : undefined,
    credential: 'session',
    // Signing out ends the session; turning two-factor authentication off replaces it.
    anonymousOnly: path === '/sign-out' || path === '/two-factor/disable',
  }));
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
];

/** Every route of the OpenAPI document, the identity endpoints behind its wildcard, and the EU region's. */
export function operations(document: OpenApiDocument): Operation[] {
  const region = REGION.map((operation) => ({
    ...operation,
    pathParams: [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
  }));
  const google = Object.keys(document.paths).includes(`${IDENTITY_PREFIX}callback/google`);
  return [...fromDocument(document), ...identityOperations(google), ...region];
}
