ALTER TABLE "lead_deliveries" ALTER COLUMN "lead_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verifications" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;