import { describe, expect, it } from 'vitest';
import { ApiError, errorText, isToastedNetworkFailure, NETWORK_ERROR, PortalError } from './api-error';
import { registerToastContainer } from './toasts';

const refusal = (code: string, message: string) =>
  new ApiError({ status: 409, code, message, path: '/api/v1/x' });
const networkFailure = () =>
  new ApiError({ status: 0, code: NETWORK_ERROR, message: 'common.networkError', path: '/api/v1/x' });

describe('errorText', () => {
  it("shows a refusal's own text, and a network failure's message key", () => {
    expect(errorText(refusal('APPLICATION_LIMIT_REACHED', 'You have reached the limit.'))).toBe(
      'You have reached the limit.',
    );
    expect(errorText(networkFailure())).toBe('common.networkError');
  });

  it("shows the server's text only for the worded codes when they are given", () => {
    const worded = ['INVITATION_LIMIT_EXCEEDED'];
    expect(
      errorText(refusal('INVITATION_LIMIT_EXCEEDED', 'At most 10.'), { serverWordedCodes: worded }),
    ).toBe('At most 10.');
    expect(errorText(refusal('ROLE_NOT_ASSIGNABLE', 'No.'), { serverWordedCodes: worded })).toBe(
      'common.somethingWrong',
    );
    expect(errorText(networkFailure(), { serverWordedCodes: worded })).toBe('common.networkError');
  });

  it("shows the browser's own errors by their message key and anything else as the fallback", () => {
    expect(errorText(new PortalError('createApp.error.activationTimeout'))).toBe(
      'createApp.error.activationTimeout',
    );
    expect(errorText(new TypeError('x is undefined'))).toBe('common.somethingWrong');
    expect(errorText('down', { fallback: 'common.anErrorOccurred' })).toBe('common.anErrorOccurred');
  });
});

describe('isToastedNetworkFailure', () => {
  it('holds for a network failure only while a toast container is mounted', () => {
    expect(isToastedNetworkFailure(networkFailure())).toBe(false);
    const unregister = registerToastContainer();
    expect(isToastedNetworkFailure(networkFailure())).toBe(true);
    expect(isToastedNetworkFailure(refusal('X', 'y'))).toBe(false);
    unregister();
  });
});
