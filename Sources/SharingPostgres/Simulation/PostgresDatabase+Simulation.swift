import Foundation
import SharingDependencies

extension PostgresDatabase {
  /// Writes a key's row as another machine would, in plain SQL, and returns once every shared
  /// value of the key played it back. For ``inMemory(throttle:scheduler:)`` stand-ins.
  ///
  /// ```swift
  /// @Shared(.postgres("feature-flags")) var flags = FeatureFlags()
  /// try database.simulateExternalWrite(json: #"{"darkMode": true}"#, forKey: "feature-flags")
  /// #expect(flags.darkMode)
  /// ```
  ///
  /// - Parameters:
  ///   - json: The new value, as JSON text.
  ///   - key: The key.
  /// - Throws: A ``PostgresError`` if the text is not JSON or the stand-in is down.
  public func simulateExternalWrite(json: String, forKey key: String) throws {
    try simulate { _ = try $0.write(key, json: Data(json.utf8), keepsAside: false) }
  }

  /// Writes a key's row as another machine would, encoding the value as JSON.
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - key: The key.
  public func simulateExternalWrite(_ value: some Encodable, forKey key: String) throws {
    try simulateExternalWrite(
      json: String(decoding: try JSONEncoder().encode(value), as: UTF8.self),
      forKey: key
    )
  }

  /// Deletes a key's row as another machine would, and returns once it is played back: the
  /// shared values return to their defaults.
  public func simulateExternalDelete(forKey key: String) {
    simulate { $0.simulateDelete(key) }
  }

  /// Takes the stand-in server down, or brings it back up: while it is down every load,
  /// save and transaction fails, and once it is back every held key is reloaded.
  public func simulateOutage(_ isDown: Bool = true) {
    simulate { $0.simulateOutage(isDown) }
  }

  /// The JSON text a key's row holds in the stand-in, if any.
  public func storedJSON(forKey key: String) -> String? {
    inMemoryServer()?.rows[key].map { String(decoding: $0.json, as: UTF8.self) }
  }

  /// Waits until every notification the stand-in sent so far is handled: a key's row is
  /// watched live once its listener's connection is.
  package func waitForPlayback() {
    store.listener.waitForNotifications()
  }

  /// The version of a key's row in the stand-in, if any: raised at each write.
  package func storedVersion(forKey key: String) -> Int64? {
    inMemoryServer()?.rows[key]?.version
  }

  /// The keys of the stand-in's rows, in order.
  public var storedKeys: [String] {
    inMemoryServer()?.rows.keys.sorted() ?? []
  }

  /// Changes the stand-in as `change` does, and returns once every shared value played the
  /// change back.
  private func simulate(_ change: (InMemoryServer) throws -> Void) rethrows {
    guard let server = inMemoryServer() else { return }
    try change(server)
    store.listener.waitForNotifications()
  }

  private func inMemoryServer() -> InMemoryServer? {
    guard let server = store.backend as? InMemoryServer else {
      reportIssue("Only an in-memory database simulates other machines; \(self) is a server.")
      return nil
    }
    return server
  }
}
