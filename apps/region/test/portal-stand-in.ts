import http from 'node:http';
import { REGIONAL_SESSION_CHECK_PATH } from '@portal/contracts';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  generateKeyPair,
  jwtVerify,
  createLocalJWKSet,
  SignJWT,
  type CryptoKey,
  type JSONWebKeySet,
} from 'jose';

/**
 * A real HTTP server playing the portal for the region: it serves a JWKS of a key generated
 * here, signs access tokens like GET /api/auth/token does (session id `sid-<user>`), answers the
 * application check (GET /api/v1/applications/:id) with 200 only for applications a token's subject
 * may see, and the regional session check (POST /api/internal/v1/regional-sessions/check, admin
 * token) with 200 only for a session not ended whose user may see the application.
 */
export class PortalStandIn {
  url = '';
  /** Applications each user (token subject) may see. */
  readonly visible = new Map<string, Set<string>>();
  /** Portal sessions that have ended (signed out, member deleted). */
  readonly endedSessions = new Set<string>();
  /** When set, every request is answered 503, as a portal that is down. */
  down = false;
  sessionChecks = 0;

  constructor(private readonly adminToken: string) {}
  private server: http.Server | undefined;
  private privateKey: CryptoKey | undefined;
  private jwks: JSONWebKeySet = { keys: [] };

  async start() {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    this.privateKey = privateKey;
    this.jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'portal-key', alg: 'EdDSA', use: 'sig' }] };
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  deny(userId: string, applicationId: string) {
    this.visible.get(userId)?.delete(applicationId);
  }

  endSession(userId: string) {
    this.endedSessions.add(`sid-${userId}`);
  }

  allow(userId: string, applicationId: string) {
    const apps = this.visible.get(userId) ?? new Set<string>();
    apps.add(applicationId);
    this.visible.set(userId, apps);
  }

  /** An access token as the portal issues it; `key` lets a test sign with someone else's key. */
  async token(
    userId: string,
    options: { expiresIn?: string | number; key?: CryptoKey; issuer?: string } = {},
  ) {
    return new SignJWT({ email: `${userId}@example.com`, sid: `sid-${userId}` })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'portal-key' })
      .setSubject(userId)
      .setIssuer(options.issuer ?? this.url)
      .setAudience(this.url)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '1h')
      .sign(options.key ?? this.privateKey!);
  }

  private async checkSession(req: http.IncomingMessage, send: (status: number, payload: unknown) => void) {
    this.sessionChecks += 1;
    if (req.headers.authorization !== `Bearer ${this.adminToken}`) return send(401, { code: 'UNAUTHORIZED', message: 'admin token' });
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const { sessionId, applicationId } = JSON.parse(raw) as { sessionId: string; applicationId: string };
    const userId = sessionId.replace(/^sid-/, '');
    if (this.endedSessions.has(sessionId)) return send(404, { code: 'NOT_FOUND', message: 'session ended' });
    if (!this.visible.get(userId)?.has(applicationId)) return send(404, { code: 'NOT_FOUND', message: 'no such application' });
    return send(200, { allowed: true, userId });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (this.down) return send(503, { code: 'UNAVAILABLE', message: 'down' });
    if (req.url === '/api/auth/jwks') return send(200, this.jwks);
    if (req.method === 'POST' && req.url === REGIONAL_SESSION_CHECK_PATH) return this.checkSession(req, send);
    const match = req.url?.match(/^\/api\/v1\/applications\/([^/?]+)$/);
    if (!match?.[1]) return send(404, { code: 'NOT_FOUND', message: 'not found' });
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    let subject: string | undefined;
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet(this.jwks), {
        issuer: this.url,
        audience: this.url,
      });
      subject = payload.sub;
    } catch {
      return send(401, { code: 'UNAUTHORIZED', message: 'bad token' });
    }
    const applicationId = decodeURIComponent(match[1]);
    if (!subject || !this.visible.get(subject)?.has(applicationId))
      return send(404, { code: 'NOT_FOUND', message: 'no such application' });
    return send(200, { applicationId });
  }
}
