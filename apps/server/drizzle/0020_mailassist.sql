CREATE TABLE "email_inbound" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"setting_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"uid" bigint NOT NULL,
	"message_id" text NOT NULL,
	"from_address" text NOT NULL,
	"subject" text NOT NULL,
	"question" text NOT NULL,
	"references" jsonb NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"claimed_by" text,
	"reply_message_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "email_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"division_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"chat_id" uuid,
	"from_email" text NOT NULL,
	"allowed_emails" jsonb NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"smtp_host" text NOT NULL,
	"smtp_port" integer NOT NULL,
	"imap_host" text NOT NULL,
	"imap_port" integer NOT NULL,
	"smtp_email" text NOT NULL,
	"user_name" text NOT NULL,
	"password_sealed" text NOT NULL,
	"security" text NOT NULL,
	"uid_validity" text,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"lease_holder" text,
	"lease_until" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"check_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "source" text DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD CONSTRAINT "email_inbound_setting_id_email_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."email_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD CONSTRAINT "email_inbound_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_settings" ADD CONSTRAINT "email_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_settings" ADD CONSTRAINT "email_settings_division_id_divisions_id_fk" FOREIGN KEY ("division_id") REFERENCES "public"."divisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_settings" ADD CONSTRAINT "email_settings_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_settings" ADD CONSTRAINT "email_settings_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_inbound_message_unique" ON "email_inbound" USING btree ("setting_id","message_id");--> statement-breakpoint
CREATE INDEX "email_inbound_sender_idx" ON "email_inbound" USING btree ("setting_id","from_address","answered_at");--> statement-breakpoint
CREATE INDEX "email_inbound_queued_idx" ON "email_inbound" USING btree ("setting_id") WHERE "email_inbound"."status" in ('queued', 'answering');--> statement-breakpoint
CREATE INDEX "email_settings_company_idx" ON "email_settings" USING btree ("company_id");--> statement-breakpoint
UPDATE "roles" SET "rules" = "rules" || '[{"action":"manage","subject":"EmailSetting","conditions":{"companyId":"${user.companyId}"}}]'::jsonb
  WHERE "kind" = 'DataManager' AND NOT "rules" @> '[{"subject":"EmailSetting"}]'::jsonb;
