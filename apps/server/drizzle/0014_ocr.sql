ALTER TABLE "files" ADD COLUMN "ocr_pages" integer[];--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "ocr_confidence" real;