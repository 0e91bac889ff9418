-- The API keeps the session lookup's answers in memory (auth/session-cache.ts) and must forget them
-- the moment what they were read from changes: every write to a session, user, member, organisation
-- or sign-in account (the tables portal_session_lookup reads) sends a notice on this channel, which
-- PostgreSQL delivers to every listening server when the writing transaction commits.
CREATE OR REPLACE FUNCTION portal_notify_session_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portal_session_changes', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION portal_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER user_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION portal_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER member_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "member"
  FOR EACH STATEMENT EXECUTE FUNCTION portal_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER organization_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization"
  FOR EACH STATEMENT EXECUTE FUNCTION portal_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER account_change_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "account"
  FOR EACH STATEMENT EXECUTE FUNCTION portal_notify_session_change();
--> statement-breakpoint
-- The lookup also answers when the session ends, so a kept answer is not used past it, and the
-- user's sign-in providers always, not only when the organisation requires a second factor the user
-- lacks: GET /api/v1/accounts/me shows from them whether the member has a password, which saves that
-- request a statement of its own.
CREATE OR REPLACE FUNCTION portal_session_lookup(lookup_token text, lookup_id text) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  found jsonb;
BEGIN
  SELECT jsonb_build_object(
    'sessionId', s.id, 'expiresAt', s.expires_at, 'userId', u.id, 'email', u.email, 'name', u.name,
    'emailVerified', u.email_verified, 'twoFactorEnabled', u.two_factor_enabled,
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
