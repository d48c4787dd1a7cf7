ALTER TABLE "chats" ADD COLUMN "widget_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "widget_origins" text[] DEFAULT '{}'::text[] NOT NULL;