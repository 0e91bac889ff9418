CREATE TABLE "card_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"member_id" text,
	"ip" text NOT NULL,
	"purpose" text NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "sso_email_domain_organization_id_idx";--> statement-breakpoint
ALTER TABLE "sso_email_domain" DROP CONSTRAINT "sso_email_domain_pkey";--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD CONSTRAINT "sso_email_domain_organization_id_domain_pk" PRIMARY KEY("organization_id","domain");--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "inactive_reason" text;--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD COLUMN "verification_token" text;--> statement-breakpoint
-- Domains listed before ownership was proven become pending, each with its own token to publish.
UPDATE "sso_email_domain" SET "verification_token" = replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "sso_email_domain" ALTER COLUMN "verification_token" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD COLUMN "check_error" text;--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "card_attempt" ADD CONSTRAINT "card_attempt_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_attempt_organization_idx" ON "card_attempt" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "card_attempt_member_idx" ON "card_attempt" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "card_attempt_ip_idx" ON "card_attempt" USING btree ("ip","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_email_domain_verified_idx" ON "sso_email_domain" USING btree ("domain") WHERE "sso_email_domain"."verified_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sso_email_domain_domain_idx" ON "sso_email_domain" USING btree ("domain");--> statement-breakpoint
-- An inactive account with a charge still due or a spent balance owes money (billing); any other
-- inactive account was set so by an operator, and stays so until an operator says otherwise.
UPDATE "organization" SET "inactive_reason" = CASE
  WHEN "balance_cents" <= "minimum_balance_cents" OR "inactive_notice_transaction_id" IS NOT NULL OR EXISTS (
    SELECT 1 FROM "ledger_transaction" t
    WHERE t."organization_id" = "organization"."id" AND t."type" = 'service_charge'
      AND t."status" IN ('open', 'processing')
  ) THEN 'billing' ELSE 'operator' END
WHERE "account_status" = 'inactive';--> statement-breakpoint
ALTER TABLE "organization" ADD CONSTRAINT "organization_inactive_reason_check" CHECK (("organization"."account_status" = 'inactive') = ("organization"."inactive_reason" IS NOT NULL));