import { Constants, IdentityProvider, ServiceProvider, setSchemaValidator } from 'samlify';
import { afterAll, describe, expect, it } from 'vitest';
import { SamlIdp, type SamlIdentity, type SamlPost } from './saml-idp.ts';

// samlify parses nothing without a schema validator; the portal's SSO plugin sets its own, and the
// service provider here only checks what the IdP produced, so it accepts every document.
setSchemaValidator({ validate: async () => 'accepted' });

const SP_ENTITY_ID = 'http://portal.test/api/auth/sso/saml2/sp/metadata?providerId=acme';
const ACS_URL = 'http://portal.test/api/auth/sso/saml2/sp/acs/acme';
const ada: SamlIdentity = {
  nameId: 'ada@acme.test',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  displayName: 'Ada L.',
};

const samlIdp = await SamlIdp.start();
afterAll(() => samlIdp.stop());

// As the portal's SP is set up: signed assertions required, the IdP known from its metadata.
const sp = ServiceProvider({
  entityID: SP_ENTITY_ID,
  assertionConsumerService: [{ Binding: Constants.namespace.binding.post, Location: ACS_URL }],
  wantAssertionsSigned: true,
});
const idp = IdentityProvider({ metadata: samlIdp.metadataXml });

function authnRequest(relayState: string): { url: string; id: string } {
  const { context, id } = sp.createLoginRequest(idp, 'redirect', { relayState });
  return { url: context, id };
}

const parse = (post: SamlPost) =>
  sp.parseLoginResponse(idp, 'post', {
    body: { SAMLResponse: post.SAMLResponse, RelayState: post.RelayState },
  });

describe('the test SAML identity provider', () => {
  it('answers an AuthnRequest with a response the SP accepts, for the named identity', async () => {
    const request = authnRequest('relay-1');
    expect(request.url.startsWith(`${samlIdp.ssoUrl}?`)).toBe(true);
    const post = await samlIdp.respondTo(request.url, ada);
    expect(post).toMatchObject({ acsUrl: ACS_URL, RelayState: 'relay-1' });

    const { extract } = await parse(post);
    expect(extract.issuer).toBe(samlIdp.entityId);
    expect(extract.nameID).toBe('ada@acme.test');
    expect(extract.audience).toBe(SP_ENTITY_ID);
    expect(extract.response?.inResponseTo).toBe(request.id);
    expect(extract.attributes).toEqual({
      email: 'ada@acme.test',
      givenName: 'Ada',
      surname: 'Lovelace',
      displayName: 'Ada L.',
    });
  });

  it('signs in at its URL once, posting from a page, and refuses when no one is named', async () => {
    samlIdp.signInAs(ada);
    const request = authnRequest('relay-2');
    const page = await fetch(request.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`action="${ACS_URL}"`);
    const SAMLResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const RelayState = /name="RelayState" value="([^"]+)"/.exec(html)?.[1];
    expect(RelayState).toBe('relay-2');
    expect((await parse({ acsUrl: ACS_URL, SAMLResponse, RelayState })).extract.nameID).toBe(ada.nameId);
    expect(samlIdp.requests.at(-1)).toEqual({
      id: request.id,
      issuer: SP_ENTITY_ID,
      acsUrl: ACS_URL,
      relayState: 'relay-2',
    });

    expect((await fetch(authnRequest('relay-3').url)).status).toBe(403);
  });

  it('makes responses the SP refuses: another key, tampered after signing, expired', async () => {
    const { url } = authnRequest('relay-4');
    await expect(parse(await samlIdp.respondTo(url, ada, { signWith: 'other-key' }))).rejects.toThrow();
    const tampered = await samlIdp.respondTo(url, ada, {
      tamper: (xml) => xml.replaceAll('ada@acme.test', 'eve@acme.test'),
    });
    await expect(parse(tampered)).rejects.toThrow();
    const expired = await samlIdp.respondTo(url, ada, { notOnOrAfter: new Date(Date.now() - 60 * 60_000) });
    await expect(parse(expired)).rejects.toThrow();
  });

  it('puts the overridden InResponseTo and Audience in a still valid response', async () => {
    const { url } = authnRequest('relay-5');
    const post = await samlIdp.respondTo(url, ada, { inResponseTo: '_elsewhere', audience: 'urn:other-sp' });
    const { extract } = await parse(post);
    expect(extract.response?.inResponseTo).toBe('_elsewhere');
    expect(extract.audience).toBe('urn:other-sp');
  });
});
