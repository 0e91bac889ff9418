import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ApiErrorSchema } from '@portal/contracts';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { portalName, SESSION_COOKIE_NAME } from '../auth/auth.ts';
import type { Config } from '../config.ts';
import {
  GOOGLE_IDENTITY_ENDPOINTS,
  IDENTITY_ENDPOINTS,
  SSO_IDENTITY_ENDPOINTS,
  type IdentityEndpoint,
} from './identity-endpoints.ts';
import { OPERATION_SUMMARIES } from './summaries.ts';

/** The API reference for people (Swagger UI, served from the package's own files). */
export const API_DOCS_PATH = '/api/docs';
/** The OpenAPI document the reference shows, for tools. */
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

const IDENTITY_PREFIX = '/api/auth';
/** better-auth's handler: one route for all its endpoints, so the document lists them one by one instead. */
const IDENTITY_WILDCARD = `${IDENTITY_PREFIX}/*`;

const ERROR_ANSWER =
  'Refused: `code` says why and `message` says it in words; ' +
  'a 400 names the failing input in `field` (and `fields`).';

/** The groups of the reference in the order it shows them, by the path's first segment after /api and /v1. */
const TAGS: Record<string, { name: string; description: string }> = {
  auth: {
    name: 'Identity',
    description:
      'Sign-up, address verification, sign-in and out, two-factor authentication, password reset, access tokens.',
  },
  accounts: {
    name: 'Account',
    description:
      "The signed-in user's account: organisation setup, billing details and the organisation's security settings.",
  },
  transactions: {
    name: 'Transactions',
    description: "The organisation's transactions, their invoices and payment summaries.",
  },
  payments: {
    name: 'Payments',
    description:
      "The card gateway's notifications: Stripe's signed webhook (PAYMENT_PROVIDER=stripe only); no session.",
  },
  invoices: {
    name: 'Invoices',
    description: 'Invoice PDFs behind the signed links the report endpoint answers; no session needed.',
  },
  applications: { name: 'Applications', description: 'Applications and their provisioning in a region.' },
  members: { name: 'Members', description: "The organisation's members." },
  roles: { name: 'Roles', description: 'The role vocabulary.' },
  'audit-log': {
    name: 'Audit log',
    description:
      'Who changed what in the organisation, and when: entries newest first, filtered, a page at a time or all as CSV (VIEW_AUDIT_LOG).',
  },
  'usage-alerts': {
    name: 'Usage alerts',
    description:
      'Thresholds on monthly active users, the projected charge and the balance, each mailed once a month when crossed.',
  },
  invitations: {
    name: 'Invitations',
    description: 'Inviting people, and the invitee joining through the mailed link.',
  },
  sso: {
    name: 'Single sign-on',
    description:
      "The organisation's identity provider (OIDC or SAML) and its sign-in settings; MANAGE_SSO (the super-admin's).",
  },
  config: { name: 'Configuration', description: 'What the sign-in pages need to know; public.' },
  utils: { name: 'Reference data', description: 'Countries and subdivisions for the billing forms; public.' },
  internal: { name: 'Regions', description: 'Server-to-server calls from the regional platform.' },
  operator: {
    name: 'Operator',
    description:
      "Running the business with the operator token as the bearer (the CLI's API); no member's session.",
  },
  health: { name: 'Health', description: 'For load balancers and monitoring.' },
  dev: { name: 'Development', description: 'The development outbox; never mounted in production.' },
};

const DESCRIPTION = `The portal's own API, as its web app calls it.

**Sessions.** \`POST /api/auth/sign-in/email\` sets the HttpOnly session cookie \`${SESSION_COOKIE_NAME}\`
(named \`__Secure-${SESSION_COOKIE_NAME}\` on https), which the other endpoints read. A call that changes
something with the cookie must name the portal as its \`Origin\` (browsers do). A client without cookies gets
a one-hour access token from \`GET /api/auth/token\` and sends it as \`Authorization: Bearer <token>\`.

**Errors.** Every refusal is JSON \`{"code", "message"}\` with its HTTP status; a 400 names the failing input
in \`field\`. The code is for programs, the message for people.`;

/** The operations endpoints sit at the root, as load balancers expect them, in the Health group. */
const TAG_OF_ROOT_PATH: Record<string, string> = { healthz: 'health', readyz: 'health' };

function tagOf(url: string): string {
  const key = url.replace(/^\/(api\/)?(v1\/)?/, '').split('/')[0] ?? '';
  return TAGS[TAG_OF_ROOT_PATH[key] ?? key]?.name ?? key;
}

/** `/api/v1/members/:memberId` as the document writes it: `/api/v1/members/{memberId}`. */
export function documentPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' });

const jsonContent = (schema: z.ZodType, io: 'input' | 'output') => ({
  'application/json': { schema: jsonSchemaOf(schema, io) },
});

/** The document's parameters of one kind (path or query) from their zod object. */
function parametersOf(where: 'path' | 'query', schema: z.ZodObject | undefined) {
  const { properties = {}, required = [] } = schema ? jsonSchemaOf(schema, 'input') : {};
  return Object.entries(properties).map(([name, property]) => ({
    in: where,
    name,
    required: required.includes(name),
    schema: property,
  }));
}

function identityOperation({
  summary,
  description,
  params,
  query,
  body,
  bodyMediaType,
  success,
}: IdentityEndpoint) {
  const parameters = [...parametersOf('path', params), ...parametersOf('query', query)];
  const bodyContent = bodyMediaType
    ? { [bodyMediaType]: { schema: jsonSchemaOf(body ?? z.object({}), 'input') } }
    : body && jsonContent(body, 'input');
  return {
    tags: [tagOf(IDENTITY_PREFIX)],
    summary,
    description,
    ...(parameters.length > 0 && { parameters }),
    ...(bodyContent && { requestBody: { required: true, content: bodyContent } }),
    responses: {
      [success.status]: {
        description: success.description,
        ...(success.body && { content: jsonContent(success.body, 'output') }),
      },
      '4XX': { description: ERROR_ANSWER, content: jsonContent(ApiErrorSchema, 'output') },
    },
  };
}

/** The identity endpoints the portal serves, as document paths. */
function identityPaths(google: boolean) {
  const endpoints = {
    ...IDENTITY_ENDPOINTS,
    ...SSO_IDENTITY_ENDPOINTS,
    ...(google ? GOOGLE_IDENTITY_ENDPOINTS : {}),
  };
  return Object.fromEntries(
    Object.entries(endpoints).map(([path, endpoint]) => [
      `${IDENTITY_PREFIX}${path}`,
      { [endpoint.method.toLowerCase()]: identityOperation(endpoint) },
    ]),
  );
}

/**
 * Each route's zod schemas as JSON Schema, with its group, summary and error answer. The regions'
 * APIs belong to the regional platform, which the portal only hosts in development, and the card
 * sandbox's to the sandbox payment gateway it hosts.
 */
const transform: SwaggerTransform = (input) => {
  const { url, route } = input;
  // Typed as always there, but a route declared without a schema has none.
  const schema: FastifySchema = input.schema ?? {};
  if (url.startsWith('/regions/') || url.startsWith('/card-sandbox/') || url === IDENTITY_WILDCARD)
    return { schema: { ...schema, hide: true }, url };
  const summary = OPERATION_SUMMARIES[`${String(route.method)} ${documentPath(url)}`];
  return jsonSchemaTransform({
    ...input,
    schema: {
      ...schema,
      tags: [tagOf(url)],
      ...(summary && { summary }),
      ...(schema.response
        ? { response: { ...schema.response, '4XX': ApiErrorSchema.describe(ERROR_ANSWER) } }
        : {}),
    },
  });
};

/**
 * Serves the OpenAPI document built from the routes' schemas (plus the identity endpoints) and the
 * reference that shows it. Register before the routes: the document learns them as they are added.
 */
export async function registerApiReference(app: FastifyInstance, config: Config) {
  const title = `${portalName(config)} API`;
  const addIdentityPaths: SwaggerTransformObject = (document) =>
    'openapiObject' in document
      ? {
          ...document.openapiObject,
          paths: { ...identityPaths(Boolean(config.google)), ...document.openapiObject.paths },
        }
      : document.swaggerObject;

  await app.register(swagger, {
    openapi: {
      info: { title, version: '1.0.0', description: DESCRIPTION },
      tags: Object.values(TAGS),
    },
    transform,
    transformObject: addIdentityPaths,
  });
  app.get(OPENAPI_DOCUMENT_PATH, { schema: { hide: true } }, async () => app.swagger());

  // Swagger UI's scripts, styles and images come from the package's own files (no CDN), and it
  // runs under the portal's Content-Security-Policy as it is: no inline script, no eval, images
  // as data: URIs, calls to this origin only. validatorUrl stays unset, so nothing is sent to
  // swagger.io. BaseLayout leaves out the top bar, which would let a reader load other documents.
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PATH,
    theme: { title },
    uiConfig: { layout: 'BaseLayout', deepLinking: true },
  });
}
