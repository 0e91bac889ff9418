CREATE TABLE "sso_default_application_scope" (
	"organization_id" text NOT NULL,
	"application_id" text NOT NULL,
	CONSTRAINT "sso_default_application_scope_organization_id_application_id_pk" PRIMARY KEY("organization_id","application_id")
);
--> statement-breakpoint
CREATE TABLE "sso_email_domain" (
	"domain" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_provider" (
	"id" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"oidc_config" text,
	"saml_config" text,
	"user_id" text,
	"provider_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"domain" text NOT NULL,
	"domain_verified" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_provider_provider_id_unique" UNIQUE("provider_id"),
	CONSTRAINT "sso_provider_organization_id_unique" UNIQUE("organization_id")
);
--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "sso_domain" text;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "sso_allowed_emails" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "sso_default_role_id" text DEFAULT 'portal.developer' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "sso_default_all_applications" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_default_application_scope" ADD CONSTRAINT "sso_default_application_scope_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_default_application_scope" ADD CONSTRAINT "sso_default_application_scope_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_email_domain" ADD CONSTRAINT "sso_email_domain_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_provider" ADD CONSTRAINT "sso_provider_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_provider" ADD CONSTRAINT "sso_provider_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_email_domain_organization_id_idx" ON "sso_email_domain" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_sso_domain_idx" ON "organization" USING btree (lower("sso_domain"));