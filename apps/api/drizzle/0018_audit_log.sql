CREATE TABLE "audit_log_entry" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_member_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"action_group" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"target_name" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"request_id" text,
	"changes" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log_entry" ADD CONSTRAINT "audit_log_entry_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_entry_organization_created_idx" ON "audit_log_entry" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_entry_organization_group_idx" ON "audit_log_entry" USING btree ("organization_id","action_group","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_entry_organization_action_idx" ON "audit_log_entry" USING btree ("organization_id","action","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_entry_organization_actor_idx" ON "audit_log_entry" USING btree ("organization_id","actor_member_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_entry_organization_target_idx" ON "audit_log_entry" USING btree ("organization_id","target_type","target_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_entry_created_brin_idx" ON "audit_log_entry" USING brin ("created_at");