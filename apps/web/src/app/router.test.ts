import { describe, expect, it } from 'vitest';
import { routeHandleOf } from './router';

describe('routeHandleOf with a numeric path prefix (§2, decision 041)', () => {
  it('guards a prefixed path as the page it leads to', () => {
    expect(routeHandleOf('/2/apps/asc').access).toBe('VIEW_APPLICATION');
    expect(routeHandleOf('/2/billing/asc/000000042').access).toBe('VIEW_BILLING');
    expect(routeHandleOf('/7/login').access).toBe('public');
  });

  it('leaves a path to no page, prefixed or not, to the 404 page', () => {
    expect(routeHandleOf('/2/no/such/page')).toMatchObject({ access: 'any', title: 'notFound.title' });
    expect(routeHandleOf('/2x/apps/asc')).toMatchObject({ access: 'any', title: 'notFound.title' });
  });
});
