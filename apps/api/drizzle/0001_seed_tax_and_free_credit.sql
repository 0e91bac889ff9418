-- Starting tax rates and free-credit tiers. Operators edit these rows; later migrations never overwrite them.
INSERT INTO "tax_rate" ("country_code", "rate_percent") VALUES
  (NULL, 0),
  ('SG', 9),
  ('GB', 20),
  ('DE', 19),
  ('FR', 20),
  ('NL', 21),
  ('AU', 10),
  ('IN', 18),
  ('JP', 10),
  ('TH', 7)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "free_credit_tier" ("start_cents", "credit_cents") VALUES
  (100000, 5000),
  (500000, 50000),
  (1000000, 150000)
ON CONFLICT DO NOTHING;
