/// The identity of a ``PostgresKey``: its key in its database. Shared values of keys with the
/// same identity share one reference.
public struct PostgresKeyID: Hashable, Sendable {
  let key: String
  let store: ObjectIdentifier
  /// Whether the key is a ``CoordinatedPostgresKey``, whose changes take another path.
  let isCoordinated: Bool
}
