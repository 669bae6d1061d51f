// libpq, the PostgreSQL C client, as SharingPostgres uses it.
#include <libpq-fe.h>
