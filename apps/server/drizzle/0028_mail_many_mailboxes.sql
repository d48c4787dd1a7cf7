CREATE TABLE "email_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"setting_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"chat_id" uuid NOT NULL,
	"root_message_id" text NOT NULL,
	"sender" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_watchers" (
	"id" text PRIMARY KEY NOT NULL,
	"capacity" integer NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_settings" DROP CONSTRAINT "email_settings_chat_id_chats_id_fk";
--> statement-breakpoint
DROP INDEX "email_inbound_sender_idx";--> statement-breakpoint
DROP INDEX "email_inbound_queued_idx";--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "slot_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "conversation_id" uuid;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "answer_message_id" uuid;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "reply_text" text;--> statement-breakpoint
ALTER TABLE "email_inbound" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_settings" ADD COLUMN "answer_from" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "email_settings" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_settings" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_conversations" ADD CONSTRAINT "email_conversations_setting_id_email_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."email_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_conversations" ADD CONSTRAINT "email_conversations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_conversations" ADD CONSTRAINT "email_conversations_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_conversations_root_unique" ON "email_conversations" USING btree ("setting_id","root_message_id");--> statement-breakpoint
CREATE INDEX "email_conversations_chat_idx" ON "email_conversations" USING btree ("chat_id");--> statement-breakpoint
ALTER TABLE "email_inbound" ADD CONSTRAINT "email_inbound_conversation_id_email_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."email_conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_inbound_pending_idx" ON "email_inbound" USING btree ("setting_id") WHERE "email_inbound"."status" in ('queued', 'waiting', 'answering', 'sending');--> statement-breakpoint
CREATE INDEX "email_inbound_list_idx" ON "email_inbound" USING btree ("setting_id","received_at");--> statement-breakpoint
CREATE INDEX "email_inbound_slot_idx" ON "email_inbound" USING btree ("setting_id","from_address","slot_at");--> statement-breakpoint
-- The one chat a setting had before stays its conversation (private flag and division follow the setting).
INSERT INTO "email_conversations" ("setting_id", "company_id", "chat_id", "root_message_id", "sender", "subject")
  SELECT "id", "company_id", "chat_id", '<before-conversations@werkwissen>', '', "from_email" FROM "email_settings"
  WHERE "chat_id" IS NOT NULL;--> statement-breakpoint
-- Answers given count against the hourly limits from the time they were given.
UPDATE "email_inbound" SET "slot_at" = "answered_at" WHERE "answered_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "email_settings" DROP COLUMN "chat_id";