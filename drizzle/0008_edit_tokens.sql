ALTER TABLE "leads" ADD COLUMN "edit_token_hash" text;--> statement-breakpoint
ALTER TABLE "valuations" ADD COLUMN "edit_token_hash" text;