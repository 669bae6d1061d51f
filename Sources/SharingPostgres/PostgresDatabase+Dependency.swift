public import SharingDependencies

extension DependencyValues {
  /// The database that ``SharingCore/SharedReaderKey/postgres(_:decoder:encoder:)`` keys use
  /// when they are created.
  ///
  /// ``PostgresDatabase/environment`` when the program runs; a fresh
  /// ``PostgresDatabase/inMemory(throttle:scheduler:)`` stand-in for each test and preview.
  /// A test switches to a real server with a dependency override:
  ///
  /// ```swift
  /// @Test(.dependency(\.defaultPostgresDatabase, .server("host=/tmp/pg dbname=test")))
  /// func flagsReachTheServer() async throws { … }
  /// ```
  public var defaultPostgresDatabase: PostgresDatabase {
    get { self[DefaultPostgresDatabaseKey.self] }
    set { self[DefaultPostgresDatabaseKey.self] = newValue }
  }
}

private enum DefaultPostgresDatabaseKey: DependencyKey {
  static var liveValue: PostgresDatabase { .environment }
  static var previewValue: PostgresDatabase { .inMemory() }
  static var testValue: PostgresDatabase { .inMemory() }
}
