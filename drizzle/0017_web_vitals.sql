CREATE TABLE "web_vitals" (
	"website_id" integer NOT NULL,
	"view_id" text NOT NULL,
	"day" date NOT NULL,
	"page_type" text NOT NULL,
	"lcp" real,
	"inp" real,
	"cls" real,
	"fcp" real,
	"ttfb" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_vitals_website_id_view_id_pk" PRIMARY KEY("website_id","view_id")
);
--> statement-breakpoint
ALTER TABLE "web_vitals" ADD CONSTRAINT "web_vitals_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "web_vitals_website_day_idx" ON "web_vitals" USING btree ("website_id","day","page_type");