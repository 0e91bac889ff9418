CREATE TABLE "payment_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"purpose" text NOT NULL,
	"invoice_transaction_id" bigint,
	"amount_cents" bigint NOT NULL,
	"top_up_amount_cents" bigint DEFAULT 0 NOT NULL,
	"free_credit_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint DEFAULT 0 NOT NULL,
	"tax_rate_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"source_token" text,
	"payment_method_ref" text,
	"customer_ref" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"charge_ref" text,
	"refusal" text,
	"card_brand" text,
	"card_last4" text,
	"result_transaction_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payment_attempt_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "payment_profile" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"provider" text NOT NULL,
	"payment_method_ref" text NOT NULL,
	"card_type" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "gateway_customer_ref" text;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "has_payment_profile" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "low_balance_warned_for" text;--> statement-breakpoint
ALTER TABLE "payment_attempt" ADD CONSTRAINT "payment_attempt_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempt" ADD CONSTRAINT "payment_attempt_invoice_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("invoice_transaction_id") REFERENCES "public"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempt" ADD CONSTRAINT "payment_attempt_result_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("result_transaction_id") REFERENCES "public"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_profile" ADD CONSTRAINT "payment_profile_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_attempt_pending_idx" ON "payment_attempt" USING btree ("created_at") WHERE "payment_attempt"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_attempt_organization_idx" ON "payment_attempt" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_profile_single_default_idx" ON "payment_profile" USING btree ("organization_id") WHERE "payment_profile"."is_default";--> statement-breakpoint
CREATE INDEX "payment_profile_organization_created_idx" ON "payment_profile" USING btree ("organization_id","created_at");