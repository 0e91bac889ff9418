import { OidcStandIn, type OidcIdentity } from './oidc-stand-in.ts';

/** Who the next sign-in at the stand-in is, as Google would say it in the ID token. */
export type GoogleIdentity = OidcIdentity;

export const GOOGLE_TEST_CLIENT = { id: 'portal-test-client', secret: 'portal-test-client-secret' } as const;

/**
 * The OpenID stand-in in Google's place, knowing the portal's test client. The portal reads its
 * discovery when it starts, so start this first.
 */
export class GoogleStandIn extends OidcStandIn {
  private constructor() {
    super({ clientId: GOOGLE_TEST_CLIENT.id, clientSecret: GOOGLE_TEST_CLIENT.secret });
  }

  static override async start(options: { announcedIssuerPath?: string } = {}): Promise<GoogleStandIn> {
    const standIn = new GoogleStandIn();
    await standIn.listen(options.announcedIssuerPath);
    return standIn;
  }

  /** The portal's settings for Google sign-in through this stand-in. */
  override get portalEnv(): Record<string, string> {
    return {
      GOOGLE_ISSUER: this.issuer,
      GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT.id,
      GOOGLE_CLIENT_SECRET: GOOGLE_TEST_CLIENT.secret,
    };
  }
}
