CREATE INDEX "auth_sessions_created_idx" ON "auth_sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "chat_messages_created_idx" ON "chat_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "feedback_created_idx" ON "feedback" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "files_created_idx" ON "files" USING btree ("created_at");