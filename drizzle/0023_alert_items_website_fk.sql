ALTER TABLE "alert_items" DROP CONSTRAINT "alert_items_website_id_websites_id_fk";
