ALTER TABLE "email_outbox" ADD COLUMN "link_sealed" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "budgeted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "email_outbox_budget_idx" ON "email_outbox" USING btree ("company_id","created_at") WHERE "email_outbox"."budgeted";