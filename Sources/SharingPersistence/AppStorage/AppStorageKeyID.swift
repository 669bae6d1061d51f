/// The identity of an ``AppStorageKey``: its name and its store.
public struct AppStorageKeyID: Hashable, Sendable {
  let key: String
  let store: UserDefaultsBox
}
