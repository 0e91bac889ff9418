import type { PaymentGatewayConfiguration } from '@portal/contracts';
import { ApiError, NETWORK_ERROR } from '../../../lib/api-error';
import { isRecord } from '../../../lib/is-record';
import { cardRefusalsOf, type CardRefusal, type SandboxCardRequest } from '../card-form';

/** What the tokeniser tells about a card it took: never its number. */
export interface SandboxCardToken {
  id: string;
  card: { brand: string; last4: string; expMonth: number; expYear: number };
}

export type TokenizeOutcome = { ok: true; token: SandboxCardToken } | { ok: false; refusals: CardRefusal[] };

const isToken = (body: unknown): body is SandboxCardToken =>
  isRecord(body) && typeof body.id === 'string' && body.id !== '' && isRecord(body.card);

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * POST {tokenizeUrl} with the public key: the sandbox gateway takes the card straight from the
 * browser and answers a token, so the card never reaches the portal API. The portal's session
 * cookie is not sent to it. No answer at all is a network failure (ApiError NETWORK_ERROR).
 */
export async function tokenizeSandboxCard(
  configuration: PaymentGatewayConfiguration,
  card: SandboxCardRequest,
): Promise<TokenizeOutcome> {
  const url = configuration.tokenizeUrl;
  if (!url) throw new Error('The sandbox gateway names no tokenizeUrl.');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'omit',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${configuration.publicKey}`,
      },
      body: JSON.stringify(card),
    });
  } catch {
    const message = navigator.onLine ? 'common.networkError' : 'common.offline';
    throw new ApiError({ status: 0, code: NETWORK_ERROR, message, path: url });
  }
  const body = await readBody(response);
  if (response.ok && isToken(body)) return { ok: true, token: body };
  const refusals = cardRefusalsOf(body);
  return {
    ok: false,
    refusals: refusals.length > 0 ? refusals : [{ field: null, message: 'common.somethingWrong' }],
  };
}
