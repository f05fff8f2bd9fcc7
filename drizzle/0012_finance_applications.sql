CREATE TABLE "finance_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"website_id" integer NOT NULL,
	"dealership_slug" text,
	"car_id" integer,
	"lead_id" uuid,
	"partner" text NOT NULL,
	"phone" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"quote" jsonb,
	"status" text NOT NULL,
	"partner_reference" text,
	"redirect_url" text,
	"error" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "finance_applications" ADD CONSTRAINT "finance_applications_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finance_applications_website_idx" ON "finance_applications" USING btree ("website_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_applications_idempotency_idx" ON "finance_applications" USING btree ("website_id","idempotency_key");