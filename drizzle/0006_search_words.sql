CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words typo-tolerant search compares a misspelt word with (see stock.schema.ts searchWords).
CREATE FUNCTION "search_words_of"("texts" text[]) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT word FROM unnest("texts") t, unnest(string_to_array(t, ' ')) word
  WHERE word ~ '^[a-z0-9]{3,}$' AND word !~ '[0-9]{3}'
$$;
--> statement-breakpoint
CREATE FUNCTION "search_words_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
    SELECT search_words_of(array_agg("search_text")) FROM "changed_new"
    ON CONFLICT ("word") DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "cars_search_words_insert" AFTER INSERT ON "cars" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_add"();
--> statement-breakpoint
CREATE TRIGGER "cars_search_words_update" AFTER UPDATE ON "cars" REFERENCING NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "search_words_add"();
--> statement-breakpoint
INSERT INTO "search_words" ("word") SELECT search_words_of(array_agg("search_text")) FROM "cars" ON CONFLICT ("word") DO NOTHING;
