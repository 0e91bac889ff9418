-- The session check every API request makes, as a function: PL/pgSQL keeps the plan of the
-- four-table join after the first calls, which the embedded database would otherwise plan again
-- on every request (about two thirds of the check's time there). A session is found by its token
-- (the cookie) or its id (the access token's `sid`); the row comes back as one JSON object: the
-- session and user fields, and the member and organisation rows whole.
CREATE OR REPLACE FUNCTION portal_session_lookup(lookup_token text, lookup_id text) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  found jsonb;
BEGIN
  SELECT jsonb_build_object(
    'sessionId', s.id, 'userId', u.id, 'email', u.email, 'name', u.name, 'emailVerified', u.email_verified,
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
