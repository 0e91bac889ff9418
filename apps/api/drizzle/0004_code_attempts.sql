CREATE TABLE "code_attempt" (
	"identifier" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
