CREATE TABLE "blocklist_ignores" (
	"user_id" integer NOT NULL,
	"list_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocklist_ignores_user_id_list_id_pk" PRIMARY KEY("user_id","list_id")
);
--> statement-breakpoint
CREATE TABLE "blocklist_listings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"ip_address_id" integer,
	"domain_id" integer,
	"list_id" text NOT NULL,
	"listed_at" timestamp with time zone NOT NULL,
	"delisted_at" timestamp with time zone,
	"reason" text,
	CONSTRAINT "blocklist_listings_one_target" CHECK (("blocklist_listings"."ip_address_id" IS NULL) <> ("blocklist_listings"."domain_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "blocklist_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"ip_address_id" integer,
	"domain_id" integer,
	"list_id" text NOT NULL,
	"status" text NOT NULL,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"txt" text,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "blocklist_results_one_target" CHECK (("blocklist_results"."ip_address_id" IS NULL) <> ("blocklist_results"."domain_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "ip_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"ip_address" text NOT NULL,
	"label" text,
	"type" text NOT NULL,
	"associated_domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"blacklist_count" integer DEFAULT 0 NOT NULL,
	"total_providers" integer DEFAULT 0 NOT NULL,
	"sender_score" integer,
	"score_factors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reverse_dns" text,
	"reverse_dns_confirmed" boolean,
	"last_checked" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reputation_runs" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "reputation_factors" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "registrar" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "registered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "rdap_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blocklist_ignores" ADD CONSTRAINT "blocklist_ignores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocklist_listings" ADD CONSTRAINT "blocklist_listings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocklist_listings" ADD CONSTRAINT "blocklist_listings_ip_address_id_ip_addresses_id_fk" FOREIGN KEY ("ip_address_id") REFERENCES "public"."ip_addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocklist_listings" ADD CONSTRAINT "blocklist_listings_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocklist_results" ADD CONSTRAINT "blocklist_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocklist_results" ADD CONSTRAINT "blocklist_results_ip_address_id_ip_addresses_id_fk" FOREIGN KEY ("ip_address_id") REFERENCES "public"."ip_addresses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocklist_results" ADD CONSTRAINT "blocklist_results_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_addresses" ADD CONSTRAINT "ip_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reputation_runs" ADD CONSTRAINT "reputation_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blocklist_listings_ip_idx" ON "blocklist_listings" USING btree ("ip_address_id","listed_at");--> statement-breakpoint
CREATE INDEX "blocklist_listings_domain_idx" ON "blocklist_listings" USING btree ("domain_id","listed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "blocklist_results_ip_list_key" ON "blocklist_results" USING btree ("ip_address_id","list_id");--> statement-breakpoint
CREATE UNIQUE INDEX "blocklist_results_domain_list_key" ON "blocklist_results" USING btree ("domain_id","list_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ip_addresses_user_ip_key" ON "ip_addresses" USING btree ("user_id","ip_address");--> statement-breakpoint
CREATE INDEX "ip_addresses_user_idx" ON "ip_addresses" USING btree ("user_id","created_at" DESC);