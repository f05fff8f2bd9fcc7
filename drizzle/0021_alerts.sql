CREATE TABLE "alert_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"website_id" integer NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"car_id" integer NOT NULL,
	"saved_search_id" uuid,
	"old_price" integer,
	"new_price" integer,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivery_id" bigint
);
--> statement-breakpoint
CREATE TABLE "alert_progress" (
	"website_id" integer PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL,
	"swept_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_subscriptions" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"website_id" integer NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"instant_price_drops" boolean DEFAULT false NOT NULL,
	"consent_text" text NOT NULL,
	"consented_at" timestamp with time zone NOT NULL,
	"origin" text NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"last_digest_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "favourites" ADD COLUMN "notified_state" text;--> statement-breakpoint
ALTER TABLE "alert_items" ADD CONSTRAINT "alert_items_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_items" ADD CONSTRAINT "alert_items_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_items" ADD CONSTRAINT "alert_items_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_items" ADD CONSTRAINT "alert_items_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_progress" ADD CONSTRAINT "alert_progress_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_items_customer_source_key" ON "alert_items" USING btree ("customer_id","source");--> statement-breakpoint
CREATE INDEX "alert_items_unsent_idx" ON "alert_items" USING btree ("customer_id") WHERE delivery_id is null;--> statement-breakpoint
CREATE INDEX "alert_subscriptions_website_idx" ON "alert_subscriptions" USING btree ("website_id") WHERE unsubscribed_at is null;