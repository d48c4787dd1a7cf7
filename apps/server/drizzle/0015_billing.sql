CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"stripe_invoice_id" text NOT NULL,
	"stripe_subscription_id" text,
	"number" text,
	"plan" text,
	"currency" text NOT NULL,
	"total_cents" integer NOT NULL,
	"paid_cents" integer NOT NULL,
	"status" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"customer_name" text,
	"customer_address" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_stripe_invoice_id_unique" UNIQUE("stripe_invoice_id")
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"key" text PRIMARY KEY NOT NULL,
	"interval_months" integer,
	"price_cents" integer,
	"currency" text DEFAULT 'eur' NOT NULL,
	"storage_bytes" bigint,
	"divisions" integer,
	"employees" integer,
	"smtp_settings" integer,
	"email_settings" integer,
	"questions_per_month" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"company_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "source" text DEFAULT 'trial' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "last_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "notified" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_stripe_subscription_idx" ON "subscriptions" USING btree ("stripe_subscription_id");--> statement-breakpoint
CREATE INDEX "invoices_company_idx" ON "invoices" USING btree ("company_id","issued_at");--> statement-breakpoint
CREATE INDEX "stripe_events_company_idx" ON "stripe_events" USING btree ("company_id","received_at");--> statement-breakpoint
-- The sign-up trial was an `active` row of plan `trial`; a trial is now its own status.
UPDATE "subscriptions" SET "status" = 'trial' WHERE "plan" = 'trial' AND "status" = 'active';--> statement-breakpoint
-- The catalogue: half-yearly costs 13% less than six monthly payments (6 x 49.00 x 0.87 = 255.78). Trials follow the
-- system settings' limits (null); the operator edits all of this in the back office.
INSERT INTO "plans" ("key", "interval_months", "price_cents", "currency", "storage_bytes", "divisions", "employees", "smtp_settings", "email_settings", "questions_per_month", "sort_order") VALUES
  ('trial', NULL, NULL, 'eur', NULL, NULL, NULL, 1, 1, NULL, 1),
  ('monthly', 1, 4900, 'eur', 53687091200, 50, 100, 3, 10, NULL, 2),
  ('halfYearly', 6, 25578, 'eur', 53687091200, 50, 100, 3, 10, NULL, 3),
  ('handwerkTrial', NULL, NULL, 'eur', NULL, NULL, NULL, 1, 1, NULL, 4),
  ('handwerkPro', 1, 9900, 'eur', 107374182400, 100, 250, 5, 25, NULL, 5),
  ('handwerkEnterprise', 1, 29900, 'eur', 1099511627776, 1000, 10000, 50, 250, NULL, 6)
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
-- The new subjects' default rules, appended to the stored roles (see permissions/default-roles.ts).
UPDATE "roles" SET "rules" = "rules" || '[{"action":"read","subject":["Subscription","Invoice","Plan"]}]'::jsonb
  WHERE "kind" = 'Staff' AND NOT "rules" @> '[{"subject":["Subscription","Invoice","Plan"]}]'::jsonb;--> statement-breakpoint
UPDATE "roles" SET "rules" = "rules" || '[{"action":["read","update"],"subject":"Subscription","conditions":{"companyId":"${user.companyId}"}},{"action":"read","subject":"Invoice","conditions":{"companyId":"${user.companyId}"}},{"action":"read","subject":"Plan"}]'::jsonb
  WHERE "kind" = 'DataManager' AND NOT "rules" @> '[{"subject":"Subscription"}]'::jsonb;
