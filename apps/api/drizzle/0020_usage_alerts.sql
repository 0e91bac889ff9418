CREATE TABLE "usage_alert_notice" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"kind" text NOT NULL,
	"threshold" bigint NOT NULL,
	"figure" bigint NOT NULL,
	"license_mau" integer NOT NULL,
	"billing_cycle" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_alert_setting" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"alerts" jsonb NOT NULL,
	"recipients" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_alert_notice" ADD CONSTRAINT "usage_alert_notice_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_alert_setting" ADD CONSTRAINT "usage_alert_setting_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_alert_notice_once_idx" ON "usage_alert_notice" USING btree ("organization_id","kind","threshold","billing_cycle");--> statement-breakpoint
CREATE INDEX "usage_alert_notice_unmailed_idx" ON "usage_alert_notice" USING btree ("id") WHERE "usage_alert_notice"."mailed_at" IS NULL;