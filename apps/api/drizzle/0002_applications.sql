CREATE TABLE "application" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"plan" text NOT NULL,
	"region" text NOT NULL,
	"state" text DEFAULT 'initializing' NOT NULL,
	"network_id" text,
	"console_url" text,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deactivated_at" timestamp with time zone,
	"provisioning_attempts" integer DEFAULT 0 NOT NULL,
	"last_provisioning_error" text
);
--> statement-breakpoint
CREATE TABLE "member_application_scope" (
	"member_id" text NOT NULL,
	"application_id" text NOT NULL,
	CONSTRAINT "member_application_scope_member_id_application_id_pk" PRIMARY KEY("member_id","application_id")
);
--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_application_scope" ADD CONSTRAINT "member_application_scope_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_application_scope" ADD CONSTRAINT "member_application_scope_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_organization_created_idx" ON "application" USING btree ("organization_id","created_at");