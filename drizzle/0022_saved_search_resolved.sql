ALTER TABLE "saved_searches" ADD COLUMN "resolved" jsonb;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "resolved_generation" text;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "makes" text[] DEFAULT '{}'::text[] NOT NULL;