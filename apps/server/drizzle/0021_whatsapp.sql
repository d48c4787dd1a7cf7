CREATE TABLE "whatsapp_connections" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"company_key" text NOT NULL,
	"phone_number_id" text NOT NULL,
	"business_account_id" text NOT NULL,
	"access_token_encrypted" text NOT NULL,
	"access_token_hint" text NOT NULL,
	"app_secret_encrypted" text NOT NULL,
	"app_secret_hint" text NOT NULL,
	"verify_token" text NOT NULL,
	"unknown_numbers" text DEFAULT 'refuse' NOT NULL,
	"public_chat_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"wa_message_id" text,
	"contact" text NOT NULL,
	"contact_name" text,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"body" text,
	"status" text NOT NULL,
	"error_code" text,
	"reply_to" uuid,
	"part" integer,
	"chat_message_id" uuid,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_connections" ADD CONSTRAINT "whatsapp_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_connections" ADD CONSTRAINT "whatsapp_connections_public_chat_id_chats_id_fk" FOREIGN KEY ("public_chat_id") REFERENCES "public"."chats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_chat_message_id_chat_messages_id_fk" FOREIGN KEY ("chat_message_id") REFERENCES "public"."chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_connections_key_unique" ON "whatsapp_connections" USING btree ("company_key");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_connections_phone_unique" ON "whatsapp_connections" USING btree ("phone_number_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_messages_wa_id_unique" ON "whatsapp_messages" USING btree ("company_id","direction","wa_message_id") WHERE "whatsapp_messages"."wa_message_id" is not null;--> statement-breakpoint
CREATE INDEX "whatsapp_messages_reply_idx" ON "whatsapp_messages" USING btree ("reply_to","part");--> statement-breakpoint
CREATE UNIQUE INDEX "chats_whatsapp_owner_unique" ON "chats" USING btree ("owner_id") WHERE "chats"."source" = 'whatsapp';