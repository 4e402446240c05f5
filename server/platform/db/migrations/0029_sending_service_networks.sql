CREATE TABLE "sending_service_networks" (
	"service" text NOT NULL,
	"network" "cidr" NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sending_service_networks_service_network_pk" PRIMARY KEY("service","network")
);
--> statement-breakpoint
CREATE INDEX "sending_service_networks_network_idx" ON "sending_service_networks" USING gist ("network" inet_ops);