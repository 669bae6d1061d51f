import SharingPostgres
import Testing

/// What a database says of itself.
@Suite struct PostgresDatabaseTests {
  @Test(
    arguments: [
      (
        "postgresql://app:s3cr3t-password@db.internal/app",
        #".server("postgresql://app:***@db.internal/app", table: "sharing_values")"#
      ),
      (
        "postgresql://app@db.internal/app?sslmode=require&password=s3cr3t-password",
        #".server("postgresql://app@db.internal/app?sslmode=require&password=***", "#
          + #"table: "sharing_values")"#
      ),
      (
        "host=db.internal user=app password=s3cr3t-password dbname=app",
        #".server("host=db.internal user=app password=*** dbname=app", table: "sharing_values")"#
      ),
      (
        #"host=db.internal password = 's3cr3t \' password' user=app"#,
        #".server("host=db.internal password = *** user=app", table: "sharing_values")"#
      ),
    ]
  )
  func descriptionNeverShowsThePassword(connectionString: String, description: String) {
    let database = PostgresDatabase.server(connectionString)
    #expect(!database.description.contains("s3cr3t"))
    #expect(database.description == description)
  }

  @Test func descriptionShowsTheSettingsThatDifferFromTheDefaults() {
    let database = PostgresDatabase.server(
      PostgresDatabase.Configuration(
        "host=pgbouncer",
        listeningConnectionString: "host=db password=s3cr3t",
        table: "flags",
        timeout: .milliseconds(500)
      )
    )
    #expect(
      database.description
        == #".server("host=pgbouncer", listeningConnectionString: "host=db password=***", "#
        + #"table: "flags", timeout: 0.5 seconds)"#
    )
  }
}
