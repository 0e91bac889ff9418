CREATE TABLE "two_factor" (
	"id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" text NOT NULL,
	"verified" boolean DEFAULT true NOT NULL,
	"failed_verification_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "two_factor_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "require_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "two_factor_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The session check (0005) also answers whether the user has a second factor, and, only when the
-- organisation requires one and the user has none, the providers the user can sign in with: the
-- portal decides from them whether the member must enrol (sign-ins through an organisation's
-- identity provider are left to its own MFA, docs/security.md).
CREATE OR REPLACE FUNCTION portal_session_lookup(lookup_token text, lookup_id text) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  found jsonb;
BEGIN
  SELECT jsonb_build_object(
    'sessionId', s.id, 'userId', u.id, 'email', u.email, 'name', u.name, 'emailVerified', u.email_verified,
    'twoFactorEnabled', u.two_factor_enabled,
    'signInProviders', CASE WHEN o.require_two_factor AND NOT u.two_factor_enabled
      THEN (SELECT coalesce(jsonb_agg(a.provider_id), '[]'::jsonb) FROM account a WHERE a.user_id = u.id) END,
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
