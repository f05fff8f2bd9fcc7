-- Each change of a website's generations is announced on the channel 'generations' at commit
-- (LISTEN/NOTIFY), so every server process learns it without reading the database on each page it
-- serves from its cache (decision 055). Payload: 'website:{id}:{generation}', 'cars:{id}:{generation}',
-- or 'gone:{id}' when a website's row of either goes (the website was deleted).
CREATE FUNCTION "generations_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('generations', 'gone:' || OLD."website_id");
  ELSE
    PERFORM pg_notify('generations', TG_ARGV[0] || ':' || NEW."website_id" || ':' || NEW."generation");
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "website_generations_notify" AFTER INSERT OR UPDATE OR DELETE ON "website_generations" FOR EACH ROW EXECUTE FUNCTION "generations_notify"('website');
--> statement-breakpoint
CREATE TRIGGER "car_generations_notify" AFTER INSERT OR UPDATE OR DELETE ON "car_generations" FOR EACH ROW EXECUTE FUNCTION "generations_notify"('cars');
