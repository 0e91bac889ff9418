CREATE TABLE "application_usage" (
	"organization_id" text NOT NULL,
	"application_id" text NOT NULL,
	"billing_cycle" text NOT NULL,
	"mau" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_usage_application_id_billing_cycle_pk" PRIMARY KEY("application_id","billing_cycle"),
	CONSTRAINT "application_usage_mau_check" CHECK ("application_usage"."mau" >= 0)
);
--> statement-breakpoint
CREATE TABLE "balance_movement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"transaction_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"balance_after_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_line" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"transaction_id" bigint NOT NULL,
	"application_id" text,
	"description" text NOT NULL,
	"product_name" text DEFAULT '' NOT NULL,
	"quantity" bigint NOT NULL,
	"unit_price_micro_usd" bigint,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transaction" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"padded_id" text GENERATED ALWAYS AS (lpad(id::text, greatest(9, length(id::text)), '0')) STORED NOT NULL,
	"organization_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"payment_amount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_amount_cents" bigint DEFAULT 0 NOT NULL,
	"tax_rate_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"credit_transaction_id" bigint,
	"notes" text DEFAULT '' NOT NULL,
	"invoice_type" text,
	"billing_cycle" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "ledger_transaction_billing_cycle_check" CHECK ("ledger_transaction"."billing_cycle" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "ledger_transaction_amounts_check" CHECK ("ledger_transaction"."amount_cents" >= 0 AND "ledger_transaction"."payment_amount_cents" >= 0 AND "ledger_transaction"."tax_amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "balance_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "minimum_balance_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "license_mau" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "license_fee_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "contract_plan" text DEFAULT 'advance' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "support_plan" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "support_plan_fee_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "application_usage" ADD CONSTRAINT "application_usage_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_usage" ADD CONSTRAINT "application_usage_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_movement" ADD CONSTRAINT "balance_movement_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_movement" ADD CONSTRAINT "balance_movement_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transaction"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_line" ADD CONSTRAINT "invoice_line_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_line" ADD CONSTRAINT "invoice_line_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transaction"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transaction" ADD CONSTRAINT "ledger_transaction_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transaction" ADD CONSTRAINT "ledger_transaction_credit_transaction_id_ledger_transaction_id_fk" FOREIGN KEY ("credit_transaction_id") REFERENCES "public"."ledger_transaction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_usage_organization_cycle_idx" ON "application_usage" USING btree ("organization_id","billing_cycle");--> statement-breakpoint
CREATE INDEX "balance_movement_organization_created_idx" ON "balance_movement" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "invoice_line_transaction_idx" ON "invoice_line" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transaction_cycle_type_idx" ON "ledger_transaction" USING btree ("organization_id","billing_cycle","type");--> statement-breakpoint
CREATE INDEX "ledger_transaction_organization_created_idx" ON "ledger_transaction" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_transaction_organization_padded_id_idx" ON "ledger_transaction" USING btree ("organization_id","padded_id" text_pattern_ops);