DROP INDEX "passages_tsv_idx";--> statement-breakpoint
CREATE INDEX "passages_tsv_german_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'german';--> statement-breakpoint
CREATE INDEX "passages_tsv_english_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'english';--> statement-breakpoint
CREATE INDEX "passages_tsv_russian_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'russian';--> statement-breakpoint
CREATE INDEX "passages_tsv_arabic_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'arabic';--> statement-breakpoint
CREATE INDEX "passages_tsv_italian_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'italian';--> statement-breakpoint
CREATE INDEX "passages_tsv_portuguese_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'portuguese';--> statement-breakpoint
CREATE INDEX "passages_tsv_french_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'french';--> statement-breakpoint
CREATE INDEX "passages_tsv_simple_idx" ON "passages" USING gin ("tsv") WHERE text_config = 'simple';