CREATE TABLE "car_price_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "car_price_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"website_id" integer NOT NULL,
	"car_id" integer NOT NULL,
	"old_price" integer NOT NULL,
	"new_price" integer NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "car_price_changes" ADD CONSTRAINT "car_price_changes_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_price_changes" ADD CONSTRAINT "car_price_changes_car_id_cars_id_fk" FOREIGN KEY ("car_id") REFERENCES "public"."cars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_price_changes_car_idx" ON "car_price_changes" USING btree ("website_id","car_id","changed_at");--> statement-breakpoint
-- One row per car whose price an UPDATE changed, whatever made the change (the Dashboard API, an
-- import, a script): a statement trigger with transition tables, so a bulk update is one insert.
CREATE FUNCTION "car_price_changes_log"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "car_price_changes" ("website_id", "car_id", "old_price", "new_price")
    SELECT n."website_id", n."id", o."price", n."price"
    FROM "changed_old" o JOIN "changed_new" n ON n."id" = o."id"
    WHERE n."price" IS DISTINCT FROM o."price";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cars_price_changes" AFTER UPDATE ON "cars" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "car_price_changes_log"();
