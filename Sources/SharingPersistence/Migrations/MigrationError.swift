/// Why a value stored at a schema version could not be read: the ``/SharingCore/Shared/loadError`` of
/// a key that declares a version.
///
/// ```swift
/// if let error = $todos.loadError as? MigrationError {
///   print(error)
///   // The value in todos.json is stored at version 1 and could not be migrated to
///   // version 3: the migration from version 2 failed: …
/// }
/// ```
///
/// The value in memory is the default, and the stored bytes are kept aside before anything
/// overwrites them; see <doc:Migrations>.
public struct MigrationError: Error, CustomStringConvertible {
  /// Where the value is stored, e.g. `todos.json` or `user defaults key "layout"`.
  public let location: String
  /// The version the value was stored at.
  public let storedVersion: Int
  /// The version the key reads and writes.
  public let currentVersion: Int
  /// The version that could not be read: the stored one, or one a migration produced.
  public let failedVersion: Int
  /// What went wrong at ``failedVersion``.
  public let reason: Reason

  /// What went wrong when reading a version.
  public enum Reason: Sendable {
    /// The version is newer than the key's: a newer program stored it.
    case newerThanCurrent
    /// No migration reads the version.
    case missingMigration
    /// The migration from the version threw this error.
    case migrationFailed(any Error)
    /// The current version could not be decoded, with this error.
    case decodingFailed(any Error)
  }

  /// A sentence saying which version failed, and why.
  public var description: String {
    let stored = "The value in \(location) is stored at version \(storedVersion)"
    switch reason {
    case .newerThanCurrent:
      return """
        \(stored), newer than version \(currentVersion), the latest this key reads: a newer \
        program wrote it.
        """
    case .missingMigration:
      return """
        \(stored) and could not be migrated to version \(currentVersion): no migration reads \
        version \(failedVersion).
        """
    case .migrationFailed(let error):
      return """
        \(stored) and could not be migrated to version \(currentVersion): the migration from \
        version \(failedVersion) failed: \(error)
        """
    case .decodingFailed(let error) where storedVersion == currentVersion:
      return "\(stored) and could not be decoded: \(error)"
    case .decodingFailed(let error):
      return """
        \(stored); it was migrated to version \(currentVersion), which could not be \
        decoded: \(error)
        """
    }
  }
}
