/// The identity of an ``InMemoryKey``: its name and its store.
public struct InMemoryKeyID: Hashable, Sendable {
  let key: String
  let store: InMemoryStorage
}
