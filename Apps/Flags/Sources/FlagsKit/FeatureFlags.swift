public import SharingCore
import SharingPostgres

/// Feature flags by name, one row of PostgreSQL shared live by every process that uses them.
///
/// ```swift
/// let flags = FeatureFlags()
/// try flags.set("beta", isOn: true)   // seen at once by every `flags watch`, everywhere
/// print(flags.listing)                // every flag, a line each
/// ```
public struct FeatureFlags: Sendable {
  /// The key of the row holding the flags.
  public static let key = "feature-flags"

  /// The flags, played back whenever anyone changes them.
  @Shared(.postgres(Self.key, .coordinated)) public var flags: [String: Bool] = [:]

  /// The flags of the default PostgreSQL database.
  public init() {}

  /// Why the flags could not be read, if they could not.
  public var loadError: (any Error)? { $flags.loadError }

  /// Reads the flags, and returns once they are read or ``loadError`` says why not: a
  /// server's keys load in the background, and are the default value until then.
  public func load() async {
    try? await $flags.load()
  }

  /// Turns a flag on or off, and returns once the change is committed.
  ///
  /// The change is a transaction on the row: two processes setting flags at once both land.
  ///
  /// - Returns: The flags as committed.
  /// - Throws: A ``SharingPostgres/PostgresError`` if the database cannot be reached, a
  ///   ``SharingPostgres/PostgresDecodingError`` if the row cannot be read.
  @discardableResult
  public func set(_ name: String, isOn: Bool) throws -> [String: Bool] {
    // NB: A transaction of the coordinated key: it starts from the committed flags, and
    //     ``flags`` holds its commit once it returns. A failed commit leaves ``flags`` as it
    //     was and sets 'saveError', which a successful one clears.
    let flags = $flags.withLock { flags in
      flags[name] = isOn
      return flags
    }
    if let error = $flags.saveError { throw error }
    return flags
  }

  /// Removes every flag, even from a row that cannot be read: such a row is first kept, as it
  /// is, in a row named `feature-flags.corrupt-<UTC time>`.
  ///
  /// Call it while the process holds no `FeatureFlags`: it writes through a plain key, and a
  /// key used both with and without `.coordinated` at once is reported.
  ///
  /// - Throws: A ``SharingPostgres/PostgresError`` if the database cannot be reached.
  public static func removeAll() async throws {
    // NB: Not the coordinated key, whose transactions start from the stored flags, which
    //     cannot be read: a plain key writes over the row, keeping it aside first.
    @Shared(.postgres(Self.key)) var flags: [String: Bool] = [:]
    do {
      try await $flags.load()
    } catch is PostgresDecodingError {
      // The row is replaced below.
    }
    $flags.withLock { $0 = [:] }
    try await $flags.save()
  }

  /// Every flag, a line each (`beta: on`), sorted by name.
  public var listing: String {
    Self.listing(flags)
  }

  /// Lines for the flags of `new` that differ from `old`: `beta: on`, or `beta: removed`.
  public static func changes(from old: [String: Bool], to new: [String: Bool]) -> [String] {
    Set(old.keys).union(new.keys).sorted().compactMap { name in
      guard old[name] != new[name] else { return nil }
      return new[name].map { "\(name): \($0 ? "on" : "off")" } ?? "\(name): removed"
    }
  }

  /// Every flag of `flags`, a line each, or `No flags.`.
  public static func listing(_ flags: [String: Bool]) -> String {
    guard !flags.isEmpty else { return "No flags." }
    return changes(from: [:], to: flags).joined(separator: "\n")
  }
}
