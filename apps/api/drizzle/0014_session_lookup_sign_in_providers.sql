-- The session lookup answers the user's sign-in providers always, not only when the organisation
-- requires a second factor the user lacks: GET /api/v1/accounts/me shows whether the member has a
-- password from them, and reading them here saves that request a second statement (a whole round
-- trip on PostgreSQL, most of the cost of a statement on PGlite) for one more indexed read here.
CREATE OR REPLACE FUNCTION portal_session_lookup(lookup_token text, lookup_id text) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  found jsonb;
BEGIN
  SELECT jsonb_build_object(
    'sessionId', s.id, 'userId', u.id, 'email', u.email, 'name', u.name, 'emailVerified', u.email_verified,
    'twoFactorEnabled', u.two_factor_enabled,
    'signInProviders', (SELECT coalesce(jsonb_agg(a.provider_id), '[]'::jsonb) FROM account a WHERE a.user_id = u.id),
    'member', to_jsonb(m), 'organization', to_jsonb(o))
  INTO found
  FROM session s
  JOIN "user" u ON u.id = s.user_id
  LEFT JOIN member m ON m.user_id = u.id
  LEFT JOIN organization o ON o.id = m.organization_id
  WHERE (s.token = lookup_token OR s.id = lookup_id) AND s.expires_at > now()
  LIMIT 1;
  RETURN found;
END $$;
